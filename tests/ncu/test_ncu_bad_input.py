"""Bad input: a clear message naming the file, partial data where sound, no traceback, no hang."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from cli_support import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ncu_support import BAD, MLP, SMALL

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile
from kernelscope.core.ncu.csv_merge import import_csvs
from kernelscope.core.ncu.csv_text import split_source_row


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("empty.csv", "is empty"),
        ("empty.ncu-rep", "is empty"),
        ("random.csv", "binary, not a CSV"),
        ("random.ncu-rep", "not a readable Nsight Compute report"),
        ("wrong_page_ptx.csv", "ptx page"),
        ("nsys_kern_sum.csv", "not an Nsight Compute CSV export"),
        ("no_lineinfo_warning.csv", "-lineinfo"),
    ],
)
def test_unusable_files_get_a_clear_message(
    name: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("kernels", "hot"):
        rc, _, err = run_cli([command, str(BAD / name)], capsys)
        assert rc == 1
        assert name in err and says in err


def test_truncated_report_keeps_the_complete_launches(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run_cli(["kernels", "--json", str(BAD / "truncated.ncu-rep")], capsys)
    assert rc == 0
    assert "launch 2 is incomplete" in err and "truncated.ncu-rep" in err
    assert '"name": "row_sum"' in out


def test_a_bug_in_report_reading_is_not_called_truncation(monkeypatch: pytest.MonkeyPatch) -> None:
    """After an ncu_report API change (here: ``IAction.source_info`` gone) reading fails
    loudly; so does a bug in kernelscope's own decoder; only damaged data becomes "launch N
    is incomplete"."""
    import ncu_report

    from kernelscope.core.ncu.rep.decoded import DecodedLaunch

    def changed(self: object, *args: object) -> None:
        raise AttributeError("'IAction' object has no attribute 'source_info'")

    monkeypatch.setattr(ncu_report.IAction, "source_info", changed)
    # without line info in its cubin: the line table is NVIDIA's reader's (cubin_lines)
    profile = Profile.open(SMALL / "nolineinfo.ncu-rep", use_cache=False)
    with pytest.raises(AttributeError, match="source_info"):
        profile.lines(profile.kernels()[0].name)

    def broken(self: object, *args: object) -> None:
        raise AttributeError("'DecodedLaunch' object has no attribute '_ids'")

    monkeypatch.setattr(DecodedLaunch, "_span", broken)  # what every metric lookup asks
    with pytest.raises(AttributeError, match="_ids"):
        Profile.open(SMALL / "lineinfo.ncu-rep", use_cache=False)


def test_a_bug_reading_details_is_raised_damaged_data_gives_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A launch's Details: damaged data (what NVIDIA's reader raises on it, RuntimeError) is
    a launch without Details; a bug (an AttributeError here) is raised, not shown as a
    launch without metrics."""
    from kernelscope.core.ncu.rep.decoded import DecodedLaunch

    profile = Profile.open(SMALL / "lineinfo.ncu-rep", use_cache=False)
    launch = profile.launches[0].id

    def broken(self: object, *args: object) -> None:
        raise AttributeError("'DecodedLaunch' object has no attribute '_ids'")

    monkeypatch.setattr(DecodedLaunch, "_span", broken)  # what every metric lookup asks
    with pytest.raises(AttributeError, match="_ids"):
        profile.launch_metrics(launch)

    def damaged(self: object, *args: object) -> None:
        raise RuntimeError("bad record")

    monkeypatch.setattr(DecodedLaunch, "metric_by_name", damaged)
    metrics = profile.launch_metrics(launch)
    assert metrics.values == {} and metrics.source == "none"


def test_csv_cut_mid_row_keeps_the_rows_before(capsys: pytest.CaptureFixture[str]) -> None:
    data = import_csvs([BAD / "cut_mid_row.csv"])
    # 32 instructions, then the start of ncu's repeat of the same block, cut in line 41
    assert [x.name for x in data.launches] == ["transpose_kernel"]
    assert len(data.tables[0]) == 32
    assert any(w.startswith(f"{BAD / 'cut_mid_row.csv'}:41: ") for w in data.warnings)
    rc, _, err = run_cli(["hot", str(BAD / "cut_mid_row.csv")], capsys)
    assert rc == 1 and "export --print-source cuda,sass" in err


def test_details_cut_mid_row(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run_cli(["kernels", str(BAD / "cut_details.csv")], capsys)
    assert rc == 0 and "transpose_kernel" in out
    assert "cut_details.csv:121" in err


def test_ragged_rows_are_padded() -> None:
    data = import_csvs([BAD / "ragged.csv"])
    table = data.tables[0]
    assert len(table) == 32
    assert any("ragged.csv:" in w and "cut short" in w for w in data.warnings)


def test_non_utf8_bytes_are_replaced_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    data = import_csvs([BAD / "non_utf8.csv"])
    assert any("non_utf8.csv:" in w and "UTF-8" in w for w in data.warnings)
    assert len(data.tables[0]) > 10
    rc, _, err = run_cli(["hot", str(BAD / "non_utf8.csv")], capsys)
    assert rc == 0 and "UTF-8" in err


def test_one_megabyte_single_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long_line = tmp_path / "long.csv"
    long_line.write_text('"ID",' + "x" * (1 << 20), encoding="utf-8")
    plain = tmp_path / "plain.csv"
    plain.write_text("y" * (1 << 20), encoding="utf-8")
    start = time.monotonic()
    for f in (long_line, plain):
        rc, _, err = run_cli(["kernels", str(f)], capsys)
        assert rc == 1 and f.name in err
    assert time.monotonic() - start < 5


def test_report_without_lineinfo_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    profile = Profile.open(SMALL / "nolineinfo.ncu-rep", use_cache=False)
    assert "-lineinfo" in profile.correlation_problem("scale")
    assert len(profile.instructions("scale")) > 10  # SASS-level metrics are still there
    rc, _, err = run_cli(["hot", str(SMALL / "nolineinfo.ncu-rep")], capsys)
    assert rc == 1 and "needs nvcc -lineinfo" in err


def test_sources_neither_embedded_nor_found(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run_cli(
        ["hot", str(MLP / "details.csv"), str(MLP / "source_cuda_sass.csv"), "--top", "3"], capsys
    )
    assert rc == 0
    ranked = [row.split()[3] for row in out.splitlines()[2:]]  # the lines, without their text
    assert ranked == [
        "transpose1_kernel.cu:4",
        "transpose_kernel.cu:3",
        "fused_matmul1_add1_kernel.cu:24",
    ]
    notes = [n for n in err.splitlines() if "not embedded in the profile" in n]
    assert sorted(n.split(":")[1].rsplit("/", 1)[-1] for n in notes) == sorted(
        r.split(":")[0] for r in ranked
    )


def test_csv_of_a_page_without_lines(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_cli(["hot", str(MLP / "details.csv")], capsys)
    assert rc == 1 and "details.csv" in err and "--print-source cuda,sass" in err
    rc, _, err = run_cli(["hot", str(MLP / "session.csv")], capsys)
    assert rc == 1 and "session.csv: no kernel launches found" in err


def test_report_and_csv_together_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_cli(["kernels", str(MLP / "mlp.ncu-rep"), str(MLP / "details.csv")], capsys)
    assert rc == 1 and "not both" in err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_cli(["hot", "no-such-report.ncu-rep"], capsys)
    assert rc == 1 and "no-such-report.ncu-rep: no such file" in err


# ---- fuzzing the CSV readers ------------------------------------------------------------------
SEEDS = [
    (MLP / "source_sass.csv").read_text(encoding="utf-8")[:6000],
    (MLP / "source_cuda_sass.csv").read_text(encoding="utf-8")[:6000],
    (MLP / "details.csv").read_text(encoding="utf-8")[:6000],
    (MLP / "raw.csv").read_text(encoding="utf-8")[:3000],
    (MLP / "session.csv").read_text(encoding="utf-8"),
    (MLP / "source_cuda.csv").read_text(encoding="utf-8")[:3000],
]


@st.composite
def mangled_exports(draw: st.DrawFn) -> bytes:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["cut", "insert", "delete", "duplicate"]))
        if op == "cut":
            text = text[:at]
        elif op == "insert":
            junk = draw(st.sampled_from(['"', ",", '","', "\n", "\x00", "é", "-", "0x", "1,234"]))
            text = text[:at] + junk + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 200)) :]
        else:
            text = text[:at] + text[max(0, at - 500) : at] + text[at:]
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data += draw(st.binary(max_size=64))
    return data


@settings(
    max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=mangled_exports())
def test_fuzz_csv_readers_fail_only_with_a_message(tmp_path: Path, data: bytes) -> None:
    f = tmp_path / "fuzz.csv"
    f.write_bytes(data)
    try:
        result = import_csvs([f])
    except KernelscopeError as exc:
        assert "fuzz.csv" in str(exc)  # every message names the file
        return
    for table in result.tables.values():
        assert len(table.locations) == len(table.offsets)
        for col in table.numbers.values():
            assert len(col) == len(table.offsets)


@given(
    fields=st.lists(st.text(alphabet=st.characters(blacklist_characters='"\n\r')), min_size=3),
    source=st.text(alphabet=st.characters(blacklist_characters="\n\r")),
    where=st.integers(0, 2),
)
def test_fuzz_splitter_recovers_the_source_column(
    fields: list[str], source: str, where: int
) -> None:
    cells = fields[:where] + [source] + fields[where:]
    line = '"' + '","'.join(cells) + '"'
    if '","' in "".join(fields) or source.endswith(",") and where == len(fields):
        return  # ambiguous by construction (only the source column may hold '","')
    assert split_source_row(line, len(cells), where) == cells
