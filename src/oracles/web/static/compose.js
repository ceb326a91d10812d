// Making a move by clicking the pieces it is about (docs/web.md, "Clicking
// the pieces"). Game-neutral: it reads only the board's hooks and the list
// of legal moves that the board embeds, never a game id.
//
//   <script type="application/json" id="legal-moves">["peek a1", ...]</script>
//       the seat's legal moves in notation; without it this script does nothing
//   [data-verb="peek"]   a move's first word where it is a choice of what to do
//   [data-pick="a1"]     a piece standing for one word of a move
//       optional data-verbs="replace fill": the piece serves only moves
//       with these first words (a hand card is not a guess's symbol)
//       optional data-why="...": why the piece can never be clicked now
//   [data-confirm]       plays a complete move that could still go on
//   [data-cancel]        clears the picks
//   [data-composed]      shows what is being composed (and why a click was refused)
//
// A move "verb a b c" is composed by clicking the verb and the pieces a, b,
// c in any order of verb and pieces; a move whose first word has no verb
// element ("code star ...", "respond pass") has that word implied. Picks
// match a move in its own order; where no move matches in order, they match
// the move's words in any order (cells named in any order: "swap c3 a1"
// composes "swap a1 c3"). A complete move no pick can extend is played at
// once; a click on the verb after the pieces plays the move it completes.
// The move goes out through window.OraclesTable.play when the table offers
// it, else through the notation box (SPEC hooks: input[name="move"]).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) return;

  var moves = [];        // [{text, verb, explicit, args}]
  var verb = null;       // the chosen verb, or null
  var picks = [];        // [{token, verbs, el}]
  var sent = false;      // a move was sent: wait for the next board
  var texts = {};

  function attr(el, name) { var v = el.getAttribute(name); return v === null ? null : v; }
  function scoped(el) { var v = attr(el, "data-verbs"); return v ? v.split(/\s+/) : null; }

  var shown = null;      // the version and legal list of the board composed on

  function load() {
    var node = board.querySelector("#legal-moves");
    var stage = board.querySelector("[data-version]");
    var key = node ? (stage ? stage.dataset.version : "") + " " + node.textContent : null;
    // The same board drawn again (a seat came or went): the picks stay.
    var kept = key !== null && key === shown ? { verb: verb, sent: sent, at: picks.map(function (p) { return p.at; }) } : null;
    shown = key;
    moves = [];
    verb = null;
    picks = [];
    sent = false;
    board.removeAttribute("aria-busy");
    if (!node) return false;
    var legal;
    try { legal = JSON.parse(node.textContent); } catch (e) { legal = []; }
    texts = {
      notNow: attr(node, "data-not-now") || "",
      notWith: attr(node, "data-not-with") || ""
    };
    var verbs = {};
    board.querySelectorAll("[data-verb]").forEach(function (el) { verbs[el.dataset.verb] = true; });
    legal.forEach(function (text) {
      var words = text.split(" ");
      if (verbs[words[0]]) moves.push({ text: text, verb: words[0], explicit: true, args: words.slice(1) });
      else if (words.length === 1) moves.push({ text: text, verb: null, explicit: false, args: words });
      else moves.push({ text: text, verb: words[0], explicit: false, args: words.slice(1) });
    });
    board.querySelectorAll("[data-pick],[data-verb]").forEach(function (el) {
      if (el.dataset.name === undefined) el.dataset.name = el.getAttribute("title") || "";
    });
    if (kept) {
      var pieces = board.querySelectorAll("[data-pick]");
      verb = kept.verb;
      picks = kept.at.map(function (at) { return pickOf(pieces[at]); });
      sent = kept.sent;
      if (sent) board.setAttribute("aria-busy", "true");
    }
    return true;
  }

  function inOrder(args, tokens) {
    if (tokens.length > args.length) return false;
    for (var i = 0; i < tokens.length; i++) if (args[i] !== tokens[i]) return false;
    return true;
  }
  function anyOrder(args, tokens) {
    if (tokens.length > args.length) return false;
    var rest = args.slice();
    for (var i = 0; i < tokens.length; i++) {
      var at = rest.indexOf(tokens[i]);
      if (at < 0) return false;
      rest.splice(at, 1);
    }
    return true;
  }
  function serves(move, list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].verbs && list[i].verbs.indexOf(move.verb) < 0) return false;
    }
    return true;
  }
  // The legal moves that the verb (or null) and the picks can still become.
  function candidates(v, list) {
    var tokens = list.map(function (p) { return p.token; });
    var pool = moves.filter(function (m) { return (v === null || (m.explicit && m.verb === v)) && serves(m, list); });
    var found = pool.filter(function (m) { return inOrder(m.args, tokens); });
    return found.length ? found : pool.filter(function (m) { return anyOrder(m.args, tokens); });
  }
  function complete(list, found) {
    return found.filter(function (m) { return m.args.length === list.length; });
  }
  // Could a further pick still make another move? Asked in any order, so a
  // peek of e4 waits as a peek of a1 does ("peek a1 e4" holds both).
  function extendable(v, list) {
    var tokens = list.map(function (p) { return p.token; });
    return moves.some(function (m) {
      return (v === null || (m.explicit && m.verb === v)) && serves(m, list) &&
        m.args.length > tokens.length && anyOrder(m.args, tokens);
    });
  }
  function pickOf(el) {
    var at = Array.prototype.indexOf.call(board.querySelectorAll("[data-pick]"), el);
    return { token: el.dataset.pick, verbs: scoped(el), el: el, at: at };
  }

  function play(text) {
    sent = true;
    board.setAttribute("aria-busy", "true");
    if (window.OraclesTable && typeof window.OraclesTable.play === "function") {
      window.OraclesTable.play(text);
    } else {
      var input = document.querySelector('#move-form input[name="move"]');
      if (!input || !input.form) return;
      input.value = text;
      if (input.form.requestSubmit) input.form.requestSubmit();
      else input.form.dispatchEvent(new Event("submit", { cancelable: true }));
    }
    draw();
    // No new board (the move was refused): let the player go on.
    var at = shown;
    setTimeout(function () { if (sent && shown === at) { sent = false; board.removeAttribute("aria-busy"); draw(); } }, 8000);
  }

  function say(message) {
    var out = board.querySelector("[data-composed]");
    if (out) { out.textContent = message; out.classList.add("refused"); }
  }

  // After each change: play a finished move, else mark what can follow.
  function settle() {
    if (picks.length || verb !== null) {
      var found = candidates(verb, picks);
      var done = complete(picks, found);
      if (picks.length && done.length === 1 && !extendable(verb, picks)) { play(done[0].text); return; }
      if (!picks.length && verb !== null && done.length === 1 && !extendable(verb, picks)) { play(done[0].text); return; }
    }
    draw();
  }

  function draw() {
    var found = candidates(verb, picks);
    var done = complete(picks, found);
    board.querySelectorAll("[data-pick]").forEach(function (el) {
      var picked = picks.some(function (p) { return p.el === el; });
      var ok = !sent && candidates(verb, picks.concat([pickOf(el)])).length > 0;
      mark(el, ok, picked);
    });
    board.querySelectorAll("[data-verb]").forEach(function (el) {
      var v = el.dataset.verb;
      var ok = !sent && (candidates(v, picks).length > 0 || candidates(v, []).length > 0);
      mark(el, ok, v === verb);
      el.classList.toggle("fits", ok && picks.length > 0 && candidates(v, picks).length > 0);
    });
    // The hooks (docs/web.md): an element carries data-confirm only while
    // it plays a complete move, data-cancel only while there are picks to
    // clear; the buttons stay in their place, shown disabled meanwhile.
    board.querySelectorAll("[data-confirm-slot]").forEach(function (el) {
      var ready = !sent && done.length === 1 && (picks.length > 0 || verb !== null);
      el.disabled = !ready;
      el.hidden = !(picks.length || verb !== null);
      el.toggleAttribute("data-confirm", ready);
      el.setAttribute("data-composing", ready ? done[0].text : "");
    });
    board.querySelectorAll("[data-cancel-slot]").forEach(function (el) {
      var clears = !sent && (picks.length > 0 || verb !== null);
      el.disabled = !clears;
      el.hidden = !clears;
      el.toggleAttribute("data-cancel", clears);
    });
    var out = board.querySelector("[data-composed]");
    if (out) {
      out.classList.remove("refused");
      out.textContent = "";
      if (verb !== null) {
        var verbEl = board.querySelector('[data-verb="' + verb + '"]');
        var label = document.createElement("b");
        label.textContent = verbEl ? (verbEl.dataset.label || verbEl.textContent.trim()) : verb;
        out.appendChild(label);
      }
      picks.forEach(function (p) {
        var face = p.el.querySelector("[data-face]");
        var piece = document.createElement("span");
        piece.className = "composed-pick";
        if (face) piece.appendChild(face.cloneNode(true));
        else piece.textContent = p.el.dataset.label || p.token;
        out.appendChild(piece);
      });
    }
    var box = board.querySelector("[data-compose-box]");
    if (box) box.classList.toggle("composing", picks.length > 0 || verb !== null);
  }

  function mark(el, ok, pressed) {
    if (ok || pressed) el.removeAttribute("aria-disabled");
    if (ok) el.setAttribute("data-legal", "");
    else { el.removeAttribute("data-legal"); if (!pressed) el.setAttribute("aria-disabled", "true"); }
    el.setAttribute("aria-pressed", pressed ? "true" : "false");
    var why = el.dataset.why || (candidates(null, []).length && !picks.length && verb === null ? texts.notNow : texts.notWith);
    var name = el.dataset.name || "";
    var title = ok || pressed ? name : (name ? name + ": " : "") + why;
    if (title) el.setAttribute("title", title); else el.removeAttribute("title");
  }

  function clickPick(el) {
    var already = picks.filter(function (p) { return p.el === el; });
    var next = picks.concat([pickOf(el)]);
    if (!candidates(verb, next).length) {
      if (already.length) {   // a second click on a picked piece takes it back
        picks.splice(picks.lastIndexOf(already[already.length - 1]), 1);
        draw();
      } else {
        say(el.getAttribute("title") || texts.notWith);
      }
      return;
    }
    picks = next;
    settle();
  }

  function clickVerb(el) {
    var v = el.dataset.verb;
    if (v === verb) {
      var done = complete(picks, candidates(verb, picks));
      if (done.length === 1) { play(done[0].text); return; }
      if (!picks.length) { verb = null; draw(); }
      return;
    }
    var found = candidates(v, picks);
    if (picks.length && found.length) {
      var ready = complete(picks, found);
      // The pieces first, then what to do with them: the verb finishes it.
      if (ready.length === 1) { play(ready[0].text); return; }
      verb = v;
      settle();
      return;
    }
    if (!candidates(v, []).length) { say(el.getAttribute("title") || texts.notNow); return; }
    verb = v;
    picks = [];
    settle();
  }

  board.addEventListener("click", function (event) {
    if (!moves.length && !board.querySelector("#legal-moves")) return;
    var el = event.target.closest ? event.target.closest("[data-pick],[data-verb],[data-confirm],[data-cancel]") : null;
    if (!el || !board.contains(el)) return;
    event.stopPropagation();   // the table's older composer does not see it
    event.preventDefault();
    if (sent) return;
    if (el.hasAttribute("data-cancel")) { verb = null; picks = []; draw(); return; }
    if (el.hasAttribute("data-confirm")) {
      var done = complete(picks, candidates(verb, picks));
      if (done.length === 1) play(done[0].text);
      return;
    }
    if (el.hasAttribute("data-verb")) { clickVerb(el); return; }
    clickPick(el);
  });
  board.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && (picks.length || verb !== null) && !sent) { verb = null; picks = []; draw(); }
  });

  function start() { if (load()) draw(); }
  // The table's script puts each new board into #board: start again then.
  new MutationObserver(function (changes) {
    if (changes.some(function (c) { return c.type === "childList"; })) start();
  }).observe(board, { childList: true });
  start();
})();
