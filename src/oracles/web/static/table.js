// The table page's client: one WebSocket to the game server (SPEC.md §7).
// On every `state` it fetches the board drawn by the server for this seat
// (/t/<id>/board) and puts it in the page. It keeps one pending move, resent
// once after a reconnect if the game is still at the version it was sent
// for; it reconnects by itself with a growing pause, shows a banner while
// the connection is lost, and marks the tab when it is this seat's turn.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var tableId = root.dataset.table;
  var token = root.dataset.token;
  var query = token ? "?token=" + encodeURIComponent(token) : "";
  var banner = document.getElementById("banner");
  var boardBox = document.getElementById("board");
  var moveForm = document.getElementById("move-form");
  var moveInput = moveForm ? moveForm.querySelector('input[name="move"]') : null;
  var moveError = document.getElementById("move-error");
  var sound = document.getElementById("sound");

  var socket = null;
  var attempt = 0;
  var lastMessage = 0;
  var wasLost = false;
  var serverVersion = -1;   // newest version the server told us
  var shownVersion = parseInt(root.dataset.version, 10);
  var pending = null;       // {action, version, id, tries}
  var reconnected = false;
  var counter = 0;
  var fetching = false;
  var myTurn = false;
  var composing = { verb: null, tokens: [] };
  var hintBox = document.getElementById("hint-box");
  var hintButton = document.getElementById("hint-button");
  var hintStatus = document.getElementById("hint-status");
  var hintList = document.getElementById("hint-list");
  var hintAsked = null;     // {id, version} of the hint awaited
  var hintShown = null;     // the last hint message, drawn on its version's board

  function setBanner(text, kind) {
    if (!text) { banner.hidden = true; banner.textContent = ""; return; }
    banner.hidden = false;
    banner.className = "banner " + (kind || "");
    banner.textContent = text;
  }

  // ------------------------------------------------------------ socket
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/tables/" + tableId + query);
    var mine = socket;
    socket.onopen = function () {
      attempt = 0;
      reconnected = true;
      lastMessage = Date.now();
    };
    socket.onmessage = function (event) {
      if (mine !== socket) return;
      lastMessage = Date.now();
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      handle(msg);
    };
    socket.onclose = function () {
      if (mine !== socket) return;
      socket = null;
      lost();
    };
    socket.onerror = function () { /* onclose follows */ };
  }

  function lost() {
    wasLost = true;
    setBanner(root.dataset.lost, "lost");
    var delay = Math.min(10000, 500 * Math.pow(2, attempt)) * (0.75 + Math.random() / 2);
    attempt += 1;
    setTimeout(function () { if (!socket) connect(); }, delay);
  }

  function reconnectNow() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      // A laptop that slept may hold a dead socket: ask, and let the
      // watchdog below close it if nothing comes back.
      send({ type: "ping" });
      return;
    }
    if (!socket) { attempt = 0; connect(); }
  }

  // A socket that stays silent for 30 s (the server answers pings) is dead.
  setInterval(function () {
    if (socket && socket.readyState === WebSocket.OPEN) {
      if (Date.now() - lastMessage > 30000) { socket.close(); }
      else if (Date.now() - lastMessage > 12000) { send({ type: "ping" }); }
    }
  }, 4000);
  window.addEventListener("online", reconnectNow);
  // The browser knows the network is gone: say so now, and retry.
  window.addEventListener("offline", function () { if (socket) socket.close(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") reconnectNow();
  });

  function send(msg) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(msg));
    return true;
  }

  // friends.js (invites, rematch, notices) hears every message and may send.
  root.addEventListener("oracles:send", function (event) { send(event.detail); });

  function handle(msg) {
    root.dispatchEvent(new CustomEvent("oracles:message", { detail: msg }));
    if (msg.type === "state") {
      if (wasLost) { wasLost = false; setBanner(root.dataset.again, "ok"); setTimeout(function () { if (!wasLost) setBanner(""); }, 2500); }
      serverVersion = msg.version;
      if (pending) {
        if (msg.version > pending.version) {
          pending = null;  // our move, or someone's before it, was applied
        } else if (msg.version === pending.version && (pending.tries === 0 || (reconnected && pending.tries === 1))) {
          // Never sent (the socket was down), or sent before the connection
          // dropped: send it (again) once. The server drops a repeated id.
          pending.tries += 1;
          send({ type: "move", action: pending.action, version: pending.version, id: pending.id });
        }
      }
      reconnected = false;
      refresh();
    } else if (msg.type === "hint") {
      if (hintAsked && msg.id === hintAsked.id) hintAsked = null;
      if (msg.version === shownVersion) { hintShown = msg; drawHint(); }
      updateHintButton();
    } else if (msg.type === "ack") {
      if (pending && msg.id === pending.id) pending = null;
    } else if (msg.type === "error" && hintAsked && msg.id === hintAsked.id) {
      hintAsked = null;
      if (hintStatus) hintStatus.textContent = msg.message || msg.code;
      updateHintButton();
    } else if (msg.type === "error") {
      if (pending && (msg.id === pending.id || msg.code === "stale")) pending = null;
      if (moveError) moveError.textContent = msg.message || msg.code;
    } else if (msg.type === "chat") {
      addChat(msg);
    } else if (msg.type === "seats") {
      refresh(true);
    } else if (msg.type === "rematch") {
      var link = document.createElement("a");
      link.href = "/t/" + msg.id + query;
      link.textContent = "→ " + msg.id;
      document.getElementById("status").appendChild(link);
    }
  }

  // ------------------------------------------------------------- board
  var again = false;
  function refresh(force) {
    if (!force && serverVersion === shownVersion && !again) return;
    if (fetching) { again = true; return; }
    fetching = true;
    again = false;
    fetch("/t/" + tableId + "/board" + query, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        boardBox.innerHTML = html;
        var board = boardBox.querySelector(".board");
        if (board) {
          shownVersion = parseInt(board.dataset.version, 10);
          root.dataset.version = board.dataset.version;
          myTurn = board.dataset.myTurn === "1";
          if (board.dataset.finished === "1") {
            var replay = document.getElementById("replay-link");
            if (replay) replay.hidden = false;
            if (hintBox) hintBox.hidden = true;  // no decision left to hint at
          }
        }
        resetComposer();
        cue();
        if (hintShown && hintShown.version !== shownVersion) { hintShown = null; }
        drawHint();
        updateHintButton();
      })
      .catch(function () { again = true; })
      .then(function () {
        fetching = false;
        if (again || serverVersion > shownVersion) { again = false; setTimeout(function () { refresh(true); }, 50); }
      });
  }

  var turnWas = false;
  function cue() {
    document.title = (myTurn ? "● " + root.dataset.yourTurn + " · " : "") + root.dataset.title;
    if (myTurn && !turnWas && sound && sound.checked) beep();
    turnWas = myTurn;
  }

  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      var ctx = new Ctx();
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.15);
    } catch (e) { /* no sound */ }
  }

  // -------------------------------------------------------------- moves
  function play(action) {
    action = action.trim().replace(/\s+/g, " ");
    if (!action) return;
    if (moveError) moveError.textContent = "";
    counter += 1;
    pending = {
      action: action,
      version: shownVersion,
      id: "m" + Date.now().toString(36) + "-" + counter + "-" + Math.random().toString(36).slice(2, 8),
      tries: 0
    };
    if (send({ type: "move", action: action, version: pending.version, id: pending.id })) {
      pending.tries = 1;
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-move],[data-token],[data-verb],[data-compose]") : null;
    if (!target || !root.contains(target)) return;
    if (target.dataset.move !== undefined) { play(target.dataset.move); return; }
    if (target.dataset.verb !== undefined) { composing = { verb: target.dataset.verb, tokens: [] }; drawComposer(); return; }
    if (target.dataset.token !== undefined) { addToken(target.dataset.token); return; }
    if (target.dataset.compose === "confirm") { play(composedText()); return; }
    if (target.dataset.compose === "clear") { composing.tokens = []; drawComposer(); return; }
    if (target.dataset.compose === "back") { composing.tokens.pop(); drawComposer(); return; }
  });

  if (moveForm) {
    moveForm.addEventListener("submit", function (event) {
      event.preventDefault();
      play(moveInput.value);
      moveInput.value = "";
    });
  }

  // Moves of several parts: pick the kind, then its parts, then confirm.
  function multiMoves() {
    var node = document.getElementById("multi-moves");
    if (!node) return [];
    try { return JSON.parse(node.textContent); } catch (e) { return []; }
  }
  function verbs(moves) {
    var seen = [];
    moves.forEach(function (m) { var v = m.split(" ")[0]; if (seen.indexOf(v) < 0) seen.push(v); });
    return seen;
  }
  function composedText() { return [composing.verb].concat(composing.tokens).join(" "); }
  function candidates(moves) {
    var prefix = composedText() + " ";
    return moves.filter(function (m) { return m.indexOf(prefix) === 0; });
  }
  function nextTokens(moves) {
    var at = composing.tokens.length + 1;
    var seen = [];
    candidates(moves).forEach(function (m) {
      var word = m.split(" ")[at];
      if (word !== undefined && seen.indexOf(word) < 0) seen.push(word);
    });
    return seen;
  }
  function addToken(token) {
    var moves = multiMoves();
    if (!composing.verb) {
      var vs = verbs(moves).filter(function (v) {
        return moves.some(function (m) { return m.indexOf(v + " " + token) === 0; });
      });
      if (vs.length !== 1) return;
      composing.verb = vs[0];
    }
    if (nextTokens(moves).indexOf(token) >= 0) composing.tokens.push(token);
    drawComposer();
  }
  function resetComposer() { composing = { verb: null, tokens: [] }; drawComposer(); }

  function button(text, data) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    Object.keys(data).forEach(function (k) { b.dataset[k] = data[k]; });
    return b;
  }

  function drawComposer() {
    // The composer sits in the board, which each state replaces.
    var composerBox = document.getElementById("composer");
    if (!composerBox || !root.dataset.token || document.getElementById("legal-moves")) return;  // compose.js composes
    var moves = multiMoves();
    composerBox.innerHTML = "";
    document.querySelectorAll(".selected").forEach(function (n) { n.classList.remove("selected"); });
    if (!moves.length) { composerBox.hidden = true; return; }
    composerBox.hidden = false;
    var row = document.createElement("div");
    row.className = "verbs";
    verbs(moves).forEach(function (v) {
      var b = button(v, { verb: v });
      if (v === composing.verb) b.className = "current";
      row.appendChild(b);
    });
    composerBox.appendChild(row);
    if (!composing.verb) return;
    composing.tokens.forEach(function (t) {
      document.querySelectorAll('[data-token="' + t + '"]').forEach(function (n) { n.classList.add("selected"); });
    });
    var shown = document.createElement("p");
    shown.className = "composed";
    shown.textContent = composedText();
    composerBox.appendChild(shown);
    var next = nextTokens(moves);
    if (next.length) {
      var choose = document.createElement("div");
      choose.className = "tokens";
      choose.setAttribute("aria-label", root.dataset.choose);
      next.forEach(function (t) {
        var b = button(t, { token: t });
        if (document.getElementById("sym-" + t)) {
          // Codename's symbols: drawn as well as named.
          b.insertAdjacentHTML("afterbegin", '<svg class="sym" aria-hidden="true"><use href="#sym-' + t + '"/></svg> ');
          b.className = "zener-token z-" + t;
        }
        choose.appendChild(b);
      });
      composerBox.appendChild(choose);
    }
    var actions = document.createElement("div");
    actions.className = "compose-actions";
    var confirm = button(root.dataset.confirm + ": " + composedText(), { compose: "confirm" });
    confirm.className = "primary";
    confirm.disabled = moves.indexOf(composedText()) < 0;
    actions.appendChild(confirm);
    if (composing.tokens.length) actions.appendChild(button("←", { compose: "back" }));
    actions.appendChild(button(root.dataset.clear, { compose: "clear" }));
    composerBox.appendChild(actions);
  }

  // -------------------------------------------------------------- hints
  // The server answers a hint only to this socket, for the version asked:
  // the candidates are listed with their values and marked on the board.
  function formatValue(value, unit) {
    if (unit === "win chance") return Math.round(value * 100) + "% " + hintBox.dataset.chance;
    return (value >= 0 ? "+" : "") + value.toFixed(1) + " " + hintBox.dataset.points;
  }
  function updateHintButton() {
    if (!hintButton) return;
    hintButton.disabled = !myTurn || hintAsked !== null;
  }
  function drawHint() {
    if (!hintBox) return;
    document.querySelectorAll(".hinted").forEach(function (n) {
      n.classList.remove("hinted", "hint-best");
      delete n.dataset.hintValue;
    });
    hintList.innerHTML = "";
    if (!hintShown) { if (!hintAsked) hintStatus.textContent = ""; return; }
    var moves = hintShown.moves;
    // Values all alike: naming one "best" would only name the first listed.
    var tied = moves.length > 1 && moves[0].value - moves[moves.length - 1].value < 1e-9;
    hintStatus.textContent = (tied ? hintBox.dataset.tied : hintBox.dataset.best + " " + hintShown.best) + " · " +
      hintBox.dataset.worlds.replace("{count}", String(hintShown.worlds));
    hintShown.moves.forEach(function (m, index) {
      var li = document.createElement("li");
      if (index === 0 && !tied) li.className = "hint-best";
      var b = button(m.action, { move: m.action });
      b.title = hintBox.dataset.play;
      li.appendChild(b);
      var value = document.createElement("span");
      value.className = "hint-value";
      value.textContent = formatValue(m.value, hintShown.unit) + " (± " + (hintShown.unit === "win chance" ? Math.round(m.margin * 100) + "%" : m.margin.toFixed(1)) + ")";
      li.appendChild(value);
      hintList.appendChild(li);
      boxMoves(m.action).forEach(function (node) {
        node.classList.add("hinted");
        if (index === 0 && !tied) node.classList.add("hint-best");
        // Short on the card itself: the list says the unit.
        node.dataset.hintValue = hintShown.unit === "win chance" ? Math.round(m.value * 100) + "%" : (m.value >= 0 ? "+" : "") + m.value.toFixed(1);
      });
    });
    // A move of several parts (keep O06 O36, reveal a1 …): mark the best
    // move's parts on the board.
    var words = hintShown.best.split(" ").slice(1);
    if (!tied && !boxMoves(hintShown.best).length) {
      words.forEach(function (word) {
        boardBox.querySelectorAll("[data-token]").forEach(function (n) {
          if (n.dataset.token === word) n.classList.add("hinted", "hint-best");
        });
      });
    }
  }
  function boxMoves(action) {
    var found = [];
    boardBox.querySelectorAll("[data-move]").forEach(function (n) { if (n.dataset.move === action) found.push(n); });
    return found;
  }
  if (hintButton) {
    hintButton.addEventListener("click", function () {
      if (!myTurn || hintAsked) return;
      counter += 1;
      hintAsked = { id: "h" + Date.now().toString(36) + "-" + counter, version: shownVersion };
      if (send({ type: "hint", version: shownVersion, id: hintAsked.id })) {
        hintStatus.textContent = hintBox.dataset.wait;
      } else {
        hintAsked = null;
      }
      updateHintButton();
    });
  }

  // --------------------------------------------------------------- chat
  var chatLines = document.getElementById("chat-lines");
  function addChat(msg) {
    var li = document.createElement("li");
    // The server escapes names and texts (SPEC: chat is HTML-escaped).
    li.innerHTML = "<b>" + (msg.name || "") + "</b>: " + (msg.text || "");
    chatLines.appendChild(li);
    while (chatLines.children.length > 100) chatLines.removeChild(chatLines.firstChild);
    chatLines.scrollTop = chatLines.scrollHeight;
  }
  var chatForm = document.getElementById("chat-form");
  chatForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var input = chatForm.querySelector("input");
    if (input.value.trim() && send({ type: "chat", text: input.value })) input.value = "";
  });

  drawComposer();
  myTurn = (boardBox.querySelector(".board") || { dataset: {} }).dataset.myTurn === "1";
  cue();
  updateHintButton();
  connect();
})();
