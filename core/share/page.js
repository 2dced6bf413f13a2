// kernelscope's shared page. Reads the data block; every piece of data goes into the page
// with textContent (never as markup). #kernel=NAME&line=N picks a kernel and a line.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("ks-data").textContent);
  var state = { kernel: null, file: 0, metric: D.metric, line: 0, insn: -1 };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function $(id) { return document.getElementById(id); }
  function fmt(v) {
    if (v === undefined || v === null || v === 0) return "";
    if (Math.round(v) === v) return v.toLocaleString("en-US");
    if (Math.abs(v) >= 100) return Math.round(v).toLocaleString("en-US");
    return Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
  }
  function pct(share) { return (100 * share).toFixed(1) + "%"; }
  function table(headers, numeric) {
    var t = el("table"), head = add(add(t, el("thead")), el("tr"));
    headers.forEach(function (h, i) { add(head, el("th", numeric.indexOf(i) >= 0 ? "num" : "", h)); });
    add(t, el("tbody"));
    return t;
  }
  function row(t, cells, numeric) {
    var tr = add(t.tBodies[0], el("tr"));
    cells.forEach(function (c, i) { add(tr, el("td", numeric.indexOf(i) >= 0 ? "num" : "", c)); });
    return tr;
  }

  // ---- kernel list --------------------------------------------------------------------------
  function kernelList() {
    var box = $("kernel-list"), shown = Object.keys(D.views).length;
    $("kernels-note").textContent = D.kernels.length + " kernels; " + (shown === D.kernels.length ?
      "each" : "the " + shown + " in bold") + " with source and SASS on this page (click one)";
    var num = [1, 2, 3, 5, 6, 7, 8];
    var t = table(["kernel", "launches", "time µs", "%", "", "SM %", "mem %", "occ %", "regs",
      "grid", "block", "top stall", "operators"], num);
    D.kernels.forEach(function (k) {
      var tr = row(t, [k.name, k.launches || "", k.time, k.time ? pct(k.share) : "", "", k.sm,
        k.mem, k.occ, k.regs, k.grid, k.block, k.stall, k.ops.join(", ")], num);
      tr.cells[0].className = "name";
      tr.cells[0].title = k.name;
      var bar = add(tr.cells[4], el("span", "bar"));
      bar.style.width = Math.round(80 * k.share) + "px";
      if (k.shown) {
        tr.className = "pick";
        tr.addEventListener("click", function () { showKernel(k.name, 0, true); });
      } else {
        tr.className = "off";
        tr.title = "not on this page (kernelscope share --kernels or --top chooses)";
      }
    });
    add(box, t);
  }

  // ---- source and SASS ------------------------------------------------------------------------
  function metricIndex() { return D.metrics.indexOf(state.metric); }
  function view() { return D.views[state.kernel]; }

  // ---- colouring: a small tokenizer for CUDA/C++ and Python (Triton), one line at a time, with
  // what a line leaves open (a /* comment, a triple-quoted string) carried to the next
  var WORDS = {
    cuda: {
      k: "if else for while do return break continue switch case default goto sizeof typedef " +
        "struct union enum class template typename namespace using static extern inline const " +
        "volatile constexpr auto register public private protected operator new delete this " +
        "true false nullptr __restrict__ __global__ __device__ __host__ __shared__ __constant__ " +
        "__forceinline__ __launch_bounds__ alignas asm",
      kt: "void bool char short int long float double signed unsigned half half2 float2 float4 " +
        "int2 int4 uint2 uint4 char4 uchar4 int8_t int16_t int32_t int64_t uint8_t uint16_t " +
        "uint32_t uint64_t size_t __half __half2 __nv_bfloat16 __nv_bfloat162",
      nb: "threadIdx blockIdx blockDim gridDim warpSize __syncthreads __syncwarp __shfl_sync " +
        "__shfl_down_sync __shfl_xor_sync __ldg min max"
    },
    python: {
      k: "and as assert async await break class continue def del elif else except finally for " +
        "from global if import in is lambda nonlocal not or pass raise return try while with " +
        "yield True False None",
      kt: "",
      nb: "range len int float bool str print tl triton constexpr"
    }
  };
  var SETS = {};
  Object.keys(WORDS).forEach(function (lang) {
    SETS[lang] = {};
    Object.keys(WORDS[lang]).forEach(function (cls) {
      WORDS[lang][cls].split(" ").forEach(function (w) { if (w) SETS[lang][w] = cls; });
    });
  });
  var TOKEN = {
    cuda: /(\/\/.*$)|(\/\*)|("(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?)|(\b(?:0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[fFuUlL]*\b)|([A-Za-z_]\w*)/g,
    python: /(#.*$)|("""|''')|("(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?)|(\b(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?)j?\b)|(@?[A-Za-z_]\w*)/g
  };

  // runs of one line: [[class, text], ...] ("" for plain); open: what the line before left open
  function tokenize(line, lang, open) {
    var out = [], pos = 0, m;
    function push(cls, text) { if (text) out.push([cls, text]); }
    if (lang === "cuda" && /^\s*#/.test(line) && !open.end) { push("cp", line); return out; }
    while (pos < line.length) {
      if (open.end) {  // inside a block comment or a triple-quoted string
        var stop = line.indexOf(open.end, pos);
        var cls = open.end === "*/" ? "c" : "s";
        if (stop < 0) { push(cls, line.slice(pos)); return out; }
        push(cls, line.slice(pos, stop + open.end.length));
        pos = stop + open.end.length;
        open.end = "";
        continue;
      }
      var re = TOKEN[lang];
      re.lastIndex = pos;
      m = re.exec(line);
      if (!m) { push("", line.slice(pos)); break; }
      push("", line.slice(pos, m.index));
      pos = m.index + m[0].length;
      if (m[1]) push("c", m[0]);
      else if (m[2]) { push(lang === "cuda" ? "c" : "s", m[0]); open.end = lang === "cuda" ? "*/" : m[0]; }
      else if (m[3]) push("s", m[0]);
      else if (m[4]) push("m", m[0]);
      else {
        var word = m[0], kind = SETS[lang][word] || "";
        if (!kind && word.charAt(0) === "@") kind = "nl";
        else if (!kind && /^\s*\(/.test(line.slice(pos))) kind = "nf";
        push(kind, word);
      }
    }
    return out;
  }

  function runs(td, items) {
    items.forEach(function (r) {
      if (!r[0]) td.appendChild(document.createTextNode(r[1]));
      else add(td, el("span", r[0], r[1]));
    });
  }

  function sourceLines(f) {
    // [[line number, text], ...] of a file: all of the kernel's own, some of a header's
    if (f.text) return f.text.map(function (t, i) { return [i + 1, D.texts[t]]; });
    return (f.some || []).map(function (s) { return [s[0], D.texts[s[1]]]; });
  }

  function fileIndexOf(v) {
    // source line -> indices of its instructions (every frame counts, inlined ones too)
    var idx = {};
    v.sass.forEach(function (s, i) {
      s[2].forEach(function (f) {
        var key = f[0] + ":" + f[1];
        (idx[key] = idx[key] || []).push(i);
      });
    });
    return idx;
  }

  function drawSource() {
    var v = view(), f = v.files[state.file], m = metricIndex();
    var pane = $("source"), t = el("table", "code");
    pane.textContent = "";
    var max = 0;
    Object.keys(f.metrics).forEach(function (n) { max = Math.max(max, f.metrics[n][m] || 0); });
    var sc = D.metrics.length - 1, prev = 0, open = { end: "" };
    var lines = sourceLines(f);
    lines.forEach(function (item) {
      var n = item[0];
      if (prev && n > prev + 1) {
        var gap = add(t, el("tr", "gap"));
        var g = add(gap, el("td", "", "…"));
        g.colSpan = 4;
        open.end = "";  // a header's lines are not contiguous
      }
      prev = n;
      var vals = f.metrics[String(n)];
      var tr = add(t, el("tr"));
      tr.id = "L" + n;
      tr.dataset.line = n;
      add(tr, el("td", "ln", n));
      var value = vals ? vals[m] : 0;
      var td = add(tr, el("td", "v", fmt(value)));
      if (max && value) td.style.setProperty("--h", (value / max).toFixed(3));
      add(tr, el("td", "v", vals && m !== sc ? fmt(vals[sc]) : ""));
      runs(add(tr, el("td", "t")), tokenize(item[1], f.lang, open));
      tr.addEventListener("click", function () { selectLine(n, true); });
    });
    if (!lines.length) add(pane, el("p", "note", f.note || "no source text for this file"));
    add(pane, t);
  }

  function drawSass() {
    var v = view(), pane = $("sass"), t = el("table", "code");
    var m = v.sass_metrics.indexOf(state.metric);
    pane.textContent = "";
    var max = 0;
    v.sass.forEach(function (s) { if (m >= 0 && s[3]) max = Math.max(max, s[3][m]); });
    v.sass.forEach(function (s, i) {
      var tr = add(t, el("tr"));
      tr.id = "S" + i;
      add(tr, el("td", "ln", s[0].toString(16).padStart(4, "0")));
      var value = m >= 0 && s[3] ? s[3][m] : 0;
      var td = add(tr, el("td", "v", fmt(value)));
      if (max && value) td.style.setProperty("--h", (value / max).toFixed(3));
      var text = add(tr, el("td", "t"));
      var words = s[1].split(" "), op = words[0].charAt(0) === "@" ? 1 : 0;
      text.appendChild(document.createTextNode(words.slice(0, op).concat([""]).join(" ")));
      add(text, el("span", "op", words[op] || ""));
      text.appendChild(document.createTextNode(words.length > op + 1 ? " " + words.slice(op + 1).join(" ") : ""));
      tr.addEventListener("click", function () { selectInstruction(i); });
    });
    add(pane, t);
  }

  function clearMarks() {
    document.querySelectorAll(".code tr.sel, .code tr.linked").forEach(function (r) {
      r.classList.remove("sel");
      r.classList.remove("linked");
    });
  }

  function scrollInto(pane, tr) {
    if (!tr) return;
    var box = $(pane);
    box.scrollTop = tr.offsetTop - box.clientHeight / 3;
  }

  function selectLine(n, scrollSass) {
    var v = view();
    state.line = n;
    state.insn = -1;
    clearMarks();
    var tr = $("L" + n);
    if (tr) tr.classList.add("sel");
    var hits = (v.index[state.file + ":" + n] || []);
    hits.forEach(function (i) { $("S" + i).classList.add("linked"); });
    if (scrollSass && hits.length) scrollInto("sass", $("S" + hits[0]));
    showStalls(n);
    $("where").textContent = v.files[state.file].name + ":" + n + " — " + hits.length +
      " SASS instruction" + (hits.length === 1 ? "" : "s");
  }

  function selectInstruction(i) {
    var v = view(), frames = v.sass[i][2];
    // its line in the kernel's own file (file 0) if it has one, else its innermost frame
    var own = frames.filter(function (f) { return f[0] === 0; })[0] || frames[0];
    if (own && own[0] !== state.file) {
      state.file = own[0];
      $("file").value = String(own[0]);
      drawSource();
    }
    if (own) selectLine(own[1], false);
    else clearMarks();
    state.insn = i;
    $("S" + i).classList.add("sel");
    if (own) scrollInto("source", $("L" + own[1]));
  }

  function showStalls(n) {
    var box = $("stalls"), stalls = view().files[state.file].stalls[String(n)];
    box.textContent = "";
    if (!stalls) return;
    add(box, el("span", "", "stall reasons: "));
    stalls.forEach(function (s) { add(box, el("span", "chip", s[0] + " " + pct(s[1]))); });
  }

  // show a kernel (at a line: its SASS marked); scroll: bring the panes into view
  function showKernel(name, line, scroll) {
    if (!D.views[name]) return;
    var v = D.views[name];
    if (!v.index) v.index = fileIndexOf(v);
    state.kernel = name;
    state.file = 0;
    $("kernel").value = name;
    var files = $("file");
    files.textContent = "";
    v.files.forEach(function (f, i) { add(files, el("option", "", f.name)).value = String(i); });
    drawSource();
    drawSass();
    showDetails(name);
    showLineDeltas(name);
    var first = line || v.start;
    if (first) { selectLine(first, true); scrollInto("source", $("L" + first)); }
    else { $("stalls").textContent = ""; $("where").textContent = ""; }
    if (scroll) $("code").scrollIntoView({ block: "start" });
  }

  function codeSection() {
    var names = Object.keys(D.views);
    if (!names.length) { $("code").hidden = true; return; }
    var pick = $("kernel");
    names.forEach(function (n) { add(pick, el("option", "", n)).value = n; });
    pick.addEventListener("change", function () { showKernel(pick.value, 0, false); });
    $("file").addEventListener("change", function () {
      state.file = Number($("file").value);
      drawSource();
    });
    var metric = $("metric");
    D.metrics.forEach(function (m) {
      var o = add(metric, el("option", "", m));
      o.value = m;
      o.title = D.descriptions[m] || "";
    });
    metric.value = state.metric;
    metric.addEventListener("change", function () {
      state.metric = metric.value;
      var line = state.line;
      drawSource();
      drawSass();
      if (line) selectLine(line, false);
    });
  }

  // ---- hot lines, Details, comparison ------------------------------------------------------
  function hotLines() {
    var box = $("hot-list");
    if (!D.hot.length) { $("hot").hidden = true; return; }
    var num = [0, 1, 2];
    var t = table(["#", "share", D.metric, "kernel", "line", "top stalls", "source"], num);
    D.hot.forEach(function (h) {
      var stalls = h.stalls.map(function (s) { return s[0] + " " + pct(s[1]); }).join(", ");
      var tr = row(t, [h.rank, pct(h.share), h.value, h.kernel, h.file + ":" + h.line, stalls,
        h.source], num);
      tr.cells[3].className = "name";
      tr.cells[6].style.fontFamily = "var(--mono)";
      if (D.views[h.kernel]) {
        tr.className = "pick";
        tr.addEventListener("click", function () { showKernel(h.kernel, h.line, true); });
      } else tr.className = "off";
    });
    add(box, t);
  }

  function showDetails(name) {
    var box = $("details"), d = D.details[name];
    box.textContent = "";
    if (!d) { add(box, el("p", "note", "no Details for this kernel")); return; }
    add(box, el("p", "note", d.summary));
    var cards = add(box, el("div", "cards"));
    d.views.forEach(function (v) {
      var card = add(cards, el("div", "card"));
      add(card, el("h3", "", v.title));
      var t = add(card, el("table"));
      v.rows.forEach(function (r) {
        var tr = add(t, el("tr"));
        add(tr, el("td", "", r[0]));
        add(tr, el("td", "num", r[1]));
      });
      if (v.note) add(card, el("p", "note", v.note));
    });
    if (d.rules.length) {
      add(box, el("h3", "", "Nsight Compute's hints"));
      var ul = add(box, el("ul", "rules"));
      d.rules.forEach(function (r) {
        var li = add(ul, el("li"));
        add(li, el("b", "", r.kind + " " + r.rule + (r.speedup ? " (est. speedup " + r.speedup + ")" : "") + ": "));
        li.appendChild(document.createTextNode(r.message));
      });
    }
    if (d.missing.length) add(box, el("p", "note", "sections not collected: " + d.missing.join(", ")));
  }

  // red slower, blue faster, grey within noise: as the window colours changes
  function statusClass(status) {
    return { slower: "slower", faster: "faster", "within noise": "noise" }[status] || "";
  }

  function comparison() {
    var c = D.compare;
    if (!c) { $("compare").hidden = true; return; }
    var box = $("compare-body");
    add(box, el("p", "note", "base: " + c.base));
    add(box, el("p", "note", "new: " + c.new));
    var num = [2, 3, 4, 5, 6];
    var t = table(["kernel", "match", "base µs", "new µs", "delta µs", "delta", "noise ±µs", ""], num);
    c.kernels.concat([c.total]).forEach(function (k) {
      var tr = row(t, [k.kernel, k.match, k.base, k.now, k.delta, k.pct, k.noise, k.status], num);
      tr.cells[0].className = "name";
      tr.cells[7].className = statusClass(k.status);
      if (k.new && D.views[k.new]) {
        tr.className = "pick";
        tr.addEventListener("click", function () { showKernel(k.new, 0, true); });
      }
    });
    add(add(box, el("div", "scroll list")), t);
    add(box, el("p", "note", c.noise));
    c.notes.forEach(function (n) { add(box, el("p", "note", n)); });
  }

  function showLineDeltas(name) {
    var box = $("line-deltas");
    box.textContent = "";
    var rows = D.compare && D.compare.lines[name];
    if (!rows) return;
    add(box, el("h3", "", "Against the baseline: " + D.compare.metric + " per pass, by line"));
    var num = [0, 1, 3, 4, 5];
    var t = table(["base", "new", "kind", "base", "new", "delta", "", "source (new)"], num);
    rows.forEach(function (r) {
      var tr = row(t, [r[0] || "", r[1] || "", r[2], r[3], r[4], r[5], r[6], r[7]], num);
      tr.cells[7].style.fontFamily = "var(--mono)";
      tr.cells[6].className = statusClass(r[6]);
      if (r[1]) {
        tr.className = "pick";
        tr.addEventListener("click", function () { state.file = 0; $("file").value = "0"; drawSource(); selectLine(r[1], true); scrollInto("source", $("L" + r[1])); });
      }
    });
    add(add(box, el("div", "scroll list")), t);
  }

  // ---- start ---------------------------------------------------------------------------------
  function fromFragment() {
    var args = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (p) {
      var i = p.indexOf("=");
      if (i > 0) args[p.slice(0, i)] = decodeURIComponent(p.slice(i + 1));
    });
    return args;
  }

  kernelList();
  codeSection();
  hotLines();
  comparison();
  var args = fromFragment(), names = Object.keys(D.views);
  if (names.length) {
    var asked = D.views[args.kernel] ? args.kernel : names[0];
    showKernel(asked, Number(args.line) || 0, Boolean(args.kernel || args.line));
  }
  document.body.dataset.ready = "1";
})();
