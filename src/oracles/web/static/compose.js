// The page's one composer: a move is made by clicking the pieces it is about
// (docs/web.md, "Playing by the pieces"). It knows no game: it reads only the
// board's hooks and the moves the board lists for this seat.
//
//   <script type="application/json" id="legal-moves">["peek a1", ...]</script>
//       the seat's moves in notation (its legal moves, or a choice it may
//       make ahead of its turn); without it this script does nothing
//   [data-verb="peek"]   a move's first word where it is a choice of what to do
//   [data-pick="a1"]     a piece standing for one word of a move
//       optional data-verbs="replace fill": the piece serves only moves
//       with these first words (a hand card is not a guess's symbol)
//       optional data-why="...": why the piece cannot be clicked now
//       optional data-name="...": what the piece is, for its title
//   [data-confirm-slot], [data-cancel-slot]   the board's own places for the
//       confirm and cancel buttons; else they go to the [data-picks-bar] of
//       the last pick's section, else to #composer
//   [data-composed]      shows what is being composed (and why a click was refused)
//   [data-refused]       where a board without [data-composed] shows why a click
//                        was refused
//   #composer            offers the words and verbs no piece on the board
//                        stands for
//   [data-arrows="5"]    a group of pieces the arrow keys move between
//       (a grid of 5 columns; without a number, one row); every piece keeps
//       its own Tab stop
//
// A move "verb a b c" is composed by clicking the verb and the pieces a, b,
// c in any order of verb and pieces; a first word with no element is
// implied (play R7 is one click on the card). Picks match a move in its own
// order; where no move matches in order, they match the move's words in any
// order (keep O12 O05 composes keep O05 O12). A complete move no pick can
// extend is played at once; a click on the verb after the pieces plays the
// move it completes. A board drawn again (someone else moved) keeps the
// picks that still lead to a move. The move goes out through
// window.OraclesTable.play (table.js), else through the notation box
// (input[name="move"]).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) return;
  var root = document.getElementById("table") || board;

  var moves = [];        // [{text, verb, args}], words in lower case
  var verb = null;       // the chosen verb, or null
  var picks = [];        // [{token, verbs, el, nth, loose}]
  var sent = false;      // a move was sent: wait for the next board
  var texts = {};
  var shown = null;      // the version and list of the board composed on

  function lower(text) { return (text || "").toLowerCase(); }
  function scoped(el) { var v = el.getAttribute("data-verbs"); return v ? lower(v).split(/\s+/) : null; }
  function inComposer(el) { return !!el.closest("#composer"); }
  // The pieces of the board itself (not the composer's offers).
  function boardPieces(selector) {
    return Array.prototype.filter.call(board.querySelectorAll(selector), function (el) { return !inComposer(el); });
  }
  function sameToken(token) {
    return boardPieces("[data-pick]").filter(function (el) { return lower(el.dataset.pick) === token; });
  }
  function pickOf(el) {
    var token = lower(el.dataset.pick);
    var loose = inComposer(el);
    return { token: token, verbs: scoped(el), el: el, nth: loose ? -1 : sameToken(token).indexOf(el), loose: loose };
  }

  function load() {
    var node = board.querySelector("#legal-moves");
    var stage = board.querySelector("[data-version]");
    var key = node ? (stage ? stage.dataset.version : "") + " " + node.textContent : null;
    var before = { verb: verb, picks: picks, sent: sent, same: key !== null && key === shown };
    shown = key;
    moves = [];
    verb = null;
    picks = [];
    sent = false;
    board.removeAttribute("aria-busy");
    if (!node) return false;
    var listed;
    try { listed = JSON.parse(node.textContent); } catch (e) { listed = []; }
    texts = {
      notNow: node.getAttribute("data-not-now") || "",
      notWith: node.getAttribute("data-not-with") || "",
      confirm: node.getAttribute("data-confirm-text") || "",
      clear: node.getAttribute("data-clear-text") || "",
      choose: node.getAttribute("data-choose-text") || "",
      more: node.getAttribute("data-more-text") || ""
    };
    var verbs = {};
    boardPieces("[data-verb]").forEach(function (el) { verbs[lower(el.dataset.verb)] = true; });
    listed.forEach(function (text) {
      var words = lower(text).trim().split(/\s+/);
      if (words.length === 1 && !verbs[words[0]]) moves.push({ text: text, verb: null, args: words });
      else moves.push({ text: text, verb: words[0], args: words.slice(1) });
    });
    board.querySelectorAll("[data-pick],[data-verb]").forEach(function (el) {
      if (el.dataset.name === undefined) el.dataset.name = el.getAttribute("title") || "";
    });
    carry(before);
    return true;
  }

  // The picks made on the board before it was drawn again, found again by
  // word and place among the pieces of that word, while they still lead to
  // a move; a move sent meanwhile is waited for only on the same board.
  function carry(before) {
    if (!before.picks.length && before.verb === null) return;
    var kept = [];
    for (var i = 0; i < before.picks.length; i++) {
      var old = before.picks[i];
      var el = old.loose ? null : sameToken(old.token)[old.nth];
      if (!el && !old.loose) return;
      kept.push({ token: old.token, verbs: el ? scoped(el) : null, el: el, nth: old.nth, loose: old.loose });
    }
    if (before.same) {
      sent = before.sent;
      if (sent) board.setAttribute("aria-busy", "true");
    } else if (before.sent) {
      return;  // the move sent from those picks was answered by this board
    }
    if (before.verb !== null && !candidates(before.verb, []).length) return;
    if (!candidates(before.verb, kept).length) return;
    verb = before.verb;
    picks = kept;
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
  // The moves that the verb (or null) and the picks can still become.
  function candidates(v, list) {
    var tokens = list.map(function (p) { return p.token; });
    var pool = moves.filter(function (m) { return (v === null || m.verb === v) && serves(m, list); });
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
      return (v === null || m.verb === v) && serves(m, list) &&
        m.args.length > tokens.length && anyOrder(m.args, tokens);
    });
  }
  // The words that may come next (a move's next word in order, else any
  // word it still lacks).
  function nextWords(v, list) {
    var tokens = list.map(function (p) { return p.token; });
    var out = {};
    candidates(v, list).forEach(function (m) {
      if (m.args.length <= tokens.length) return;
      if (inOrder(m.args, tokens)) { out[m.args[tokens.length]] = true; return; }
      var rest = m.args.slice();
      tokens.forEach(function (t) { var at = rest.indexOf(t); if (at >= 0) rest.splice(at, 1); });
      rest.forEach(function (w) { out[w] = true; });
    });
    return Object.keys(out);
  }
  function verbsOf(found) {
    var out = [];
    found.forEach(function (m) { if (m.verb !== null && out.indexOf(m.verb) < 0) out.push(m.verb); });
    return out;
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
    // No new board and no answer: let the player go on.
    var at = shown;
    setTimeout(function () { if (sent && shown === at) release(); }, 8000);
  }
  function release() {
    sent = false;
    verb = null;
    picks = [];
    board.removeAttribute("aria-busy");
    draw();
  }
  // The server refused the move (table.js says so under the board): the
  // pieces may be clicked again.
  root.addEventListener("oracles:message", function (event) {
    if (sent && event.detail && event.detail.type === "error") release();
  });

  function say(message) {
    var out = board.querySelector("[data-composed]") || board.querySelector("[data-refused]");
    if (out) { out.textContent = message; out.classList.add("refused"); }
    var live = document.getElementById("announce");
    if (live && message) { live.textContent = ""; live.textContent = message; }
  }

  // After each change: play a finished move, else mark what can follow.
  function settle() {
    if (picks.length || verb !== null) {
      var done = complete(picks, candidates(verb, picks));
      if (done.length === 1 && !extendable(verb, picks)) { play(done[0].text); return; }
    }
    draw();
  }

  function draw() {
    var found = candidates(verb, picks);
    var done = complete(picks, found);
    var composing = picks.length > 0 || verb !== null;
    boardPieces("[data-pick]").forEach(function (el) {
      var picked = picks.some(function (p) { return p.el === el; });
      var ok = !sent && candidates(verb, picks.concat([pickOf(el)])).length > 0;
      mark(el, ok, picked);
    });
    boardPieces("[data-verb]").forEach(function (el) {
      var v = lower(el.dataset.verb);
      var ok = !sent && (candidates(v, picks).length > 0 || candidates(v, []).length > 0);
      mark(el, ok, v === verb);
      el.classList.toggle("fits", ok && picks.length > 0 && candidates(v, picks).length > 0);
    });
    var ready = !sent && done.length === 1 && composing;
    var slots = board.querySelectorAll("[data-confirm-slot]");
    // The hooks (docs/web.md): an element carries data-confirm only while
    // it plays a complete move, data-cancel only while there are picks to
    // clear; the board's own buttons stay in their place meanwhile.
    slots.forEach(function (el) {
      el.disabled = !ready;
      el.hidden = !composing;
      el.toggleAttribute("data-confirm", ready);
      el.setAttribute("data-composing", ready ? done[0].text : "");
    });
    board.querySelectorAll("[data-cancel-slot]").forEach(function (el) {
      var clears = !sent && composing;
      el.disabled = !clears;
      el.hidden = !clears;
      el.toggleAttribute("data-cancel", clears);
    });
    board.querySelectorAll("[data-undo-slot]").forEach(function (el) {
      var undoes = !sent && picks.length > 0;
      el.disabled = !undoes;
      el.hidden = !undoes;
      el.toggleAttribute("data-undo", undoes);
    });
    // Slots the picks fill in order (Codename's code, a to e): each shows its
    // pick's face and name, else what it showed before.
    var fills = board.querySelectorAll("[data-fill-slot]");
    fills.forEach(function (slot, i) {
      var face = slot.querySelector("[data-fill-face]");
      if (!face) return;
      if (slot.dataset.emptyHtml === undefined) {
        slot.dataset.emptyHtml = face.innerHTML;
        slot.dataset.emptyLabel = slot.getAttribute("aria-label") || "";
      }
      var p = picks[i];
      var shown = p && p.el && p.el.querySelector("[data-face]");
      slot.classList.toggle("filled", !!shown);
      if (shown) {
        face.innerHTML = "";
        face.appendChild(shown.cloneNode(true));
        slot.setAttribute("aria-label", slot.dataset.slotName + ", " + pickWords(p));
        slot.title = slot.getAttribute("aria-label");
      } else {
        face.innerHTML = slot.dataset.emptyHtml;
        slot.setAttribute("aria-label", slot.dataset.emptyLabel);
        slot.title = slot.dataset.emptyLabel;
      }
    });
    var refused = board.querySelector("[data-refused]");
    if (refused) refused.textContent = "";
    var out = board.querySelector("[data-composed]");
    if (out) {
      out.classList.remove("refused");
      out.textContent = "";
      if (verb !== null) {
        var verbEl = boardPieces("[data-verb]").filter(function (el) { return lower(el.dataset.verb) === verb; })[0];
        var label = document.createElement("b");
        label.textContent = verbEl ? (verbEl.dataset.label || verbEl.textContent.trim()) : verb;
        out.appendChild(label);
      }
      // Picks that fill slots are shown there, not again in a loose row.
      (fills.length ? [] : picks).forEach(function (p) {
        var face = p.el && p.el.querySelector("[data-face]");
        var piece = document.createElement("span");
        piece.className = "composed-pick";
        // A piece with a short name of its own (a cell: "b1") shows it, with
        // its face when the player knows it; the rest their face, or words.
        var name = p.el && p.el.dataset.label;
        if (name && face) piece.appendChild(document.createTextNode(name));
        if (face) piece.appendChild(face.cloneNode(true));
        else piece.textContent = pickWords(p);
        if (name) piece.title = p.el.getAttribute("aria-label") || name;
        // A space between the parts: read aloud they ran together ("ansehena1").
        out.appendChild(document.createTextNode(" "));
        out.appendChild(piece);
      });
    }
    var box = board.querySelector("[data-compose-box]");
    if (box) box.classList.toggle("composing", composing);
    drawComposer(found, done, ready, slots.length > 0);
  }

  var button = window.oraclesButton;

  // A pick in words: the piece's label, else its name (its title: "O09:
  // exactly two chips"), else its notation's word.
  function pickWords(p) {
    return (p.el && (p.el.dataset.label || p.el.dataset.name || p.el.getAttribute("aria-label"))) || p.token;
  }

  // What the board has no piece for: verbs without an element (offered where
  // the pieces alone cannot say which move is meant), the next words without
  // a piece, and, on a board without its own slots, the composed move with
  // its confirm and cancel buttons beside the last pick.
  function drawComposer(found, done, ready, ownSlots) {
    var composer = document.getElementById("composer");
    boardPieces("[data-picks-bar]").forEach(function (bar) { bar.innerHTML = ""; });
    if (!composer || !board.contains(composer)) return;
    composer.innerHTML = "";
    if (!moves.length || sent) { composer.hidden = true; return; }
    var onBoard = {};
    boardPieces("[data-pick]").forEach(function (el) { onBoard[lower(el.dataset.pick)] = true; });
    var verbsOnBoard = {};
    boardPieces("[data-verb]").forEach(function (el) { verbsOnBoard[lower(el.dataset.verb)] = true; });
    var offered = false;
    var needVerb = [];
    if (verb === null) {
      if (!picks.length) {
        // A verb is worth offering only where clicking a piece would not do.
        needVerb = verbsOf(moves).filter(function (v) {
          return !verbsOnBoard[v] && !moves.some(function (m) { return m.verb === v && m.args.length && onBoard[m.args[0]]; });
        });
      } else if (verbsOf(done).length > 1) {
        needVerb = verbsOf(done).filter(function (v) { return !verbsOnBoard[v]; });
      }
    }
    if (needVerb.length) {
      var row = document.createElement("div");
      row.className = "verbs";
      needVerb.forEach(function (v) { row.appendChild(button(v, { verb: v, legal: "" })); });
      composer.appendChild(row);
      offered = true;
    }
    var loose = (picks.length || verb !== null) ? nextWords(verb, picks).filter(function (w) { return !onBoard[w]; }) : [];
    if (loose.length) {
      var choose = document.createElement("div");
      choose.className = "tokens";
      if (texts.choose) choose.setAttribute("aria-label", texts.choose);
      loose.forEach(function (t) {
        var b = button(t, { pick: t, legal: "" });
        if (document.getElementById("sym-" + t)) {
          b.insertAdjacentHTML("afterbegin", '<svg class="sym" aria-hidden="true"><use href="#sym-' + t + '"/></svg> ');
          b.className = "zener-token z-" + t;
        }
        choose.appendChild(b);
      });
      composer.appendChild(choose);
      offered = true;
    }
    if ((picks.length || verb !== null) && !ownSlots) {
      var last = picks.length ? picks[picks.length - 1].el : null;
      var bar = null;
      if (last && !inComposer(last)) {
        var area = last.closest("[data-pick-area], section");
        bar = area ? area.querySelector("[data-picks-bar]") : null;
      }
      var place = bar || composer;
      var composed = document.createElement("span");
      composed.className = "composed";
      // A piece's words where it has them: "Cem 1", not "p2 1"; a prophecy
      // card's text, not "o09".
      var verbEl = verb !== null ? boardPieces("[data-verb]").filter(function (el) { return lower(el.dataset.verb) === verb; })[0] : null;
      var verbWords = verbEl ? (verbEl.dataset.label || verbEl.textContent.trim()) : verb;
      composed.textContent = (verb !== null ? [verbWords] : []).concat(picks.map(pickWords)).join(" ");
      place.appendChild(composed);
      if (!done.length && picks.length && texts.more) {
        // Picked, but no move yet: say another pick is wanted (a first
        // prophecy picked looked like a choice made).
        var more = document.createElement("span");
        more.className = "compose-more";
        more.textContent = texts.more;
        place.appendChild(more);
      }
      if (ready) {
        // In words, as the picks read (the notation stays its data-confirm).
        var confirm = button((texts.confirm ? texts.confirm + ": " : "") + composed.textContent, { confirm: done[0].text });
        confirm.className = "primary";
        place.appendChild(confirm);
      }
      place.appendChild(button(texts.clear || "×", { cancel: "" }));
      if (place === composer) offered = true;
    }
    composer.hidden = !offered;
  }

  function mark(el, ok, pressed) {
    if (ok || pressed) el.removeAttribute("aria-disabled");
    if (ok) el.setAttribute("data-legal", "");
    else { el.removeAttribute("data-legal"); if (!pressed) el.setAttribute("aria-disabled", "true"); }
    el.setAttribute("aria-pressed", pressed ? "true" : "false");
    el.classList.toggle("picked", pressed && !sent);  // (sent: the board waits, inert)
    var why = el.dataset.why || (!picks.length && verb === null ? texts.notNow : texts.notWith);
    var name = el.dataset.name || "";
    var title = ok || pressed ? name : (name ? name + ": " : "") + why;
    if (title) el.setAttribute("title", title); else el.removeAttribute("title");
  }

  function clickPick(el) {
    var mine = picks.filter(function (p) { return p.el === el; });
    var next = picks.concat([pickOf(el)]);
    if (!candidates(verb, next).length) {
      if (mine.length) {   // a second click on a picked piece takes it back
        picks.splice(picks.lastIndexOf(mine[mine.length - 1]), 1);
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
    var v = lower(el.dataset.verb);
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
    if (!board.querySelector("#legal-moves")) return;
    var el = event.target.closest ? event.target.closest("[data-pick],[data-verb],[data-confirm],[data-cancel],[data-undo]") : null;
    if (!el || !board.contains(el)) return;
    event.stopPropagation();   // a piece's data-move is played through its picks
    event.preventDefault();
    if (sent) return;
    if (el.hasAttribute("data-cancel")) { clearPicks(); return; }
    if (el.hasAttribute("data-undo")) { undoPick(); return; }
    if (el.hasAttribute("data-confirm")) {
      var done = complete(picks, candidates(verb, picks));
      if (done.length === 1) play(done[0].text);
      return;
    }
    if (el.hasAttribute("data-verb")) clickVerb(el);
    else clickPick(el);
    // A move made complete by the keyboard (Enter or Space: a click of no
    // pointer) that could still go on: its Confirm is the next thing to
    // press, so the focus goes there (it was dozens of Tab stops away, past
    // the rest of the board). Shift+Tab goes back to the pieces.
    if (event.detail === 0 && !sent) {
      var confirm = board.querySelector("[data-confirm]");
      if (confirm && !confirm.hidden && !confirm.disabled) confirm.focus();
    }
  });
  board.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && (picks.length || verb !== null) && !sent) clearPicks();
    else arrow(event);
  });

  // The arrow keys between the pieces of a [data-arrows] group (a Mind-field,
  // a hand): an addition to Tab, which still stops at every piece.
  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  function arrow(event) {
    var step = STEPS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var el = event.target;
    var group = el && el.closest ? el.closest("[data-arrows]") : null;
    if (!group || !board.contains(group)) return;
    var pieces = Array.prototype.filter.call(group.querySelectorAll("button[data-pick], button[data-verb]"), function (p) { return !p.hidden; });
    var at = pieces.indexOf(el);
    if (at < 0) return;
    var columns = parseInt(group.getAttribute("data-arrows"), 10) || pieces.length;
    var column = at % columns;
    var next = -1;
    if (step[0] && column + step[0] >= 0 && column + step[0] < columns) next = at + step[0];
    if (step[1]) next = at + step[1] * columns;
    if (next < 0 || next >= pieces.length || (step[0] && Math.floor(next / columns) !== Math.floor(at / columns))) return;
    event.preventDefault();
    pieces[next].focus();
  }

  // Picks cleared (Cancel, Escape): the Cancel button hides itself, which
  // dropped the keyboard's focus to the page; it goes to the verb that was
  // chosen, else to the first piece that can be played.
  function clearPicks() {
    var was = verb;
    var inside = board.contains(document.activeElement);
    verb = null;
    picks = [];
    draw();
    var active = document.activeElement;
    if (inside && active && active.hasAttribute("data-cancel-slot") || !board.contains(active)) {
      var target = was !== null ? board.querySelector('[data-verb="' + was + '"]') : null;
      target = target || board.querySelector("[data-pick][data-legal], [data-verb][data-legal]");
      if (target) target.focus();
    }
  }

  // The last pick taken back (Undo last pick), the rest kept; the focus
  // stays on the Undo while there is more to undo, else goes to the pieces.
  function undoPick() {
    if (!picks.length) return;
    picks.pop();
    draw();
    var active = document.activeElement;
    if (!board.contains(active) || active.hidden) {
      var target = board.querySelector("[data-undo]") || board.querySelector("[data-pick][data-legal]");
      if (target) target.focus();
    }
  }

  function start() {
    if (load()) { draw(); return; }
    var composer = document.getElementById("composer");
    if (composer && board.contains(composer)) composer.hidden = true;
  }
  // The table's script puts each new board into #board: start again then.
  new MutationObserver(function (changes) {
    if (changes.some(function (c) { return c.type === "childList" && c.target === board; })) start();
  }).observe(board, { childList: true });
  start();
})();
