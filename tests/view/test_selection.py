"""The selection's correlation and its newest-request-wins kernel loading, without Qt."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from paths_support import DATA, data_path

from kernelscope.core.view import SASS_COUNT, ProfileSession, Selection, ViewDocument, open_document

WORKSPACE = DATA / "ws_mlp"
MLP = data_path("ncu/mlp")


@pytest.fixture(scope="module")
def session() -> ProfileSession:
    return open_document(WORKSPACE)


@pytest.fixture(scope="module")
def document(session: ProfileSession) -> ViewDocument:
    return session.document


class Recorder:
    """Which signals a selection emitted, in order; loads requested kernels on demand."""

    def __init__(self, selection: Selection) -> None:
        self.events: list[str] = []
        self.requests: list[tuple[ViewDocument, str]] = []
        for name in ("document", "kernel", "file", "metric", "selection"):
            getattr(selection, f"{name}_changed").connect(
                lambda name=name: self.events.append(name)
            )
        selection.kernel_requested.connect(lambda doc, name: self.requests.append((doc, name)))
        selection.loading_changed.connect(lambda on: self.events.append(f"loading={on}"))


@pytest.fixture
def selection(session: ProfileSession) -> Iterator[Selection]:
    """A selection whose requests are answered at once, as a synchronous loader would."""
    selection = Selection()
    selection.kernel_requested.connect(
        lambda doc, name: selection.kernel_loaded(doc, session.kernel(name))
    )
    selection.set_document(session.document, session)
    yield selection


def test_a_kernel_not_received_yet_is_requested_and_shown_when_it_arrives(
    document: ViewDocument, session: ProfileSession
) -> None:
    selection = Selection()
    selection.set_document(document)
    seen = Recorder(selection)
    selection.show("softmax_kernel")
    assert seen.requests == [(document, "softmax_kernel")]
    assert selection.kernel is None and selection.loading
    assert seen.events == ["loading=True"]
    selection.kernel_loaded(document, session.kernel("softmax_kernel"))
    assert selection.kernel is session.kernel("softmax_kernel")
    assert selection.file == selection.kernel.main_file
    assert not selection.loading
    assert seen.events == ["loading=True", "loading=False", "kernel", "file", "selection"]
    # a kernel received once is shown again without asking
    selection.show("transpose_kernel")
    selection.kernel_loaded(document, session.kernel("transpose_kernel"))
    seen.requests.clear()
    selection.show("softmax_kernel")
    assert seen.requests == [] and selection.kernel.name == "softmax_kernel"


def test_the_newest_request_wins(document: ViewDocument, session: ProfileSession) -> None:
    selection = Selection()
    selection.set_document(document)
    selection.show("softmax_kernel")
    selection.show("transpose_kernel", line=1)
    selection.kernel_loaded(document, session.kernel("softmax_kernel"))  # late, stale
    assert selection.kernel is None and selection.requested_kernel == "transpose_kernel"
    selection.kernel_loaded(document, session.kernel("transpose_kernel"))
    assert selection.kernel.name == "transpose_kernel" and selection.line == 1
    # the stale arrival was kept: going back to it needs no new load
    selection.show("softmax_kernel")
    assert selection.kernel.name == "softmax_kernel" and not selection.loading


def test_going_back_to_the_shown_kernel_drops_the_pending_request(
    document: ViewDocument, session: ProfileSession
) -> None:
    selection = Selection()
    selection.set_document(document)
    selection.show("softmax_kernel")
    selection.kernel_loaded(document, session.kernel("softmax_kernel"))
    selection.show("transpose_kernel")
    selection.show("softmax_kernel")  # changed their mind before it arrived
    assert not selection.loading
    selection.kernel_loaded(document, session.kernel("transpose_kernel"))
    assert selection.kernel.name == "softmax_kernel"


def test_results_for_another_document_and_failures_change_nothing(
    document: ViewDocument, session: ProfileSession
) -> None:
    selection = Selection()
    selection.set_document(document)
    selection.show("softmax_kernel")
    other = open_document(WORKSPACE).document
    selection.set_document(other)
    assert not selection.loading, "a new document drops the old request"
    selection.kernel_loaded(document, session.kernel("softmax_kernel"))
    assert selection.kernel is None
    selection.show("softmax_kernel")
    selection.kernel_failed(document, "softmax_kernel")  # the old document's failure
    assert selection.loading
    selection.kernel_failed(other, "softmax_kernel")
    assert not selection.loading and selection.kernel is None


def test_a_source_line_selects_every_instruction_it_produced(selection: Selection) -> None:
    selection.show("fused_matmul_add_relu_kernel")
    kernel = selection.kernel
    counts = {n: len(kernel.instructions_at(kernel.main_file, n)) for n in range(1, 200)}
    line = max(counts, key=counts.get)
    selection.select_line(line)
    expected = set(kernel.instructions_at(kernel.main_file, line))
    assert len(expected) == counts[line] > 1
    assert selection.instructions == expected
    assert selection.instruction == min(expected)
    assert selection.lines == {line}


def test_an_inlined_instruction_selects_its_call_site_in_the_kernel_file(
    selection: Selection,
) -> None:
    selection.show("softmax_kernel")
    kernel = selection.kernel
    index = next(i for i, insn in enumerate(kernel.instructions) if insn.inlined_at)
    selection.select_instruction(index)
    call_site = kernel.instructions[index].inlined_at[-1]
    assert (selection.file, selection.line) == call_site
    assert index in selection.instructions
    assert selection.instructions == set(kernel.instructions_at(*call_site)) | {index}


def test_a_header_stays_shown_while_its_instructions_are_chosen(selection: Selection) -> None:
    selection.show("softmax_kernel")
    kernel = selection.kernel
    header = next(f for f in kernel.files_in_use() if f.endswith("math_functions.hpp"))
    selection.set_file(header)
    inlined = next(i for i in range(len(kernel.instructions)) if kernel.line_of(i, header))
    line = kernel.line_of(inlined, header)
    selection.select_line(line)
    assert selection.instructions
    assert all(kernel.line_of(i, header) == line for i in selection.instructions)
    selection.select_instruction(inlined)
    assert (selection.file, selection.line) == (header, line)


def test_an_instruction_without_a_frame_in_the_shown_header_switches_back(
    selection: Selection,
) -> None:
    selection.show("softmax_kernel")
    kernel = selection.kernel
    header = next(f for f in kernel.files_in_use() if f != kernel.main_file)
    selection.set_file(header)
    seen = Recorder(selection)
    own = next(
        i
        for i, insn in enumerate(kernel.instructions)
        if kernel.line_of(i, header) is None and insn.file == kernel.main_file
    )
    selection.select_instruction(own)
    assert selection.file == kernel.main_file
    assert selection.line == kernel.instructions[own].line
    assert seen.events == ["file", "selection"]


def test_show_with_a_place_applies_it_on_arrival(selection: Selection) -> None:
    kernel = selection.open_session().kernel("softmax_kernel")
    header = next(f for f in kernel.files_in_use() if f != kernel.main_file)
    line = next(n for (f, n) in ((i.file, i.line) for i in kernel.instructions) if f == header)
    selection.show("softmax_kernel", file=header, line=line)
    assert (selection.kernel, selection.file, selection.line) == (kernel, header, line)
    assert selection.instructions == set(kernel.instructions_at(header, line))


def test_branch_target_follows_the_label(selection: Selection) -> None:
    selection.show("fused_matmul_add_relu_kernel")
    kernel = selection.kernel
    branch = next(i for i in range(len(kernel.instructions)) if kernel.target_offset(i))
    selection.select_instruction(branch)
    target = selection.branch_target()
    assert target is not None
    assert kernel.instructions[target].offset == kernel.target_offset(branch)
    plain = next(i for i in range(len(kernel.instructions)) if not kernel.target_offset(i))
    selection.select_instruction(plain)
    assert selection.branch_target() is None


def test_the_metric_follows_the_document() -> None:
    selection = Selection()
    assert selection.metric == SASS_COUNT
    profiled = open_document([MLP / "details.csv", MLP / "source_cuda_sass.csv"]).document
    selection.set_document(profiled)
    first = profiled.line_metric_names[0]
    assert first != SASS_COUNT and selection.metric == first
    chosen = profiled.line_metric_names[1]
    seen = Recorder(selection)
    selection.set_metric(chosen)
    selection.set_metric(chosen)
    assert seen.events == ["metric"]
    selection.set_document(
        open_document([MLP / "details.csv", MLP / "source_cuda_sass.csv"]).document
    )
    assert selection.metric == chosen, "a metric the new document has stays chosen"
    selection.set_document(open_document(WORKSPACE).document)
    assert selection.metric == SASS_COUNT


def test_a_launch_chosen_stays_with_its_kernel_until_another_kernel(
    selection: Selection, document: ViewDocument
) -> None:
    """The step ledger selects one launch of a kernel; panes that follow the kernel (the kernel
    list re-showing it) keep it, another kernel has none, and moving between launches of the
    kernel shown says so (``launch_changed``) without reloading it."""
    names = [k.name for k in document.summaries[:2]]
    moved: list[int | None] = []
    selection.launch_changed.connect(lambda: moved.append(selection.launch))
    selection.show(names[0], launch=3)
    assert selection.kernel.name == names[0] and selection.launch == 3
    assert moved == []  # the kernel itself changed: its panes read the launch with it
    selection.show(names[0])  # a pane following the kernel
    assert selection.launch == 3
    selection.show(names[0], launch=5)
    assert selection.launch == 5 and moved == [5]
    selection.show(names[1])
    assert selection.kernel.name == names[1] and selection.launch is None
