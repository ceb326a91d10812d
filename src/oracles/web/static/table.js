// The table page's client: one WebSocket to the game server (docs/server.md).
// It asks for its board in every `state` (`board=1`): the server draws it
// for this seat in the page's language and the page puts it in place; only
// a board that did not come that way (the last one, a seat's new name) is
// fetched from /t/<id>/board. It keeps one pending move, resent
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
  // The notation box, folded unless this browser opened it last.
  var notationBox = document.getElementById("notation-box");
  if (notationBox) {
    try { notationBox.open = localStorage.getItem("oraclesNotation") === "open"; } catch (e) { /* no storage */ }
    notationBox.addEventListener("toggle", function () {
      try { localStorage.setItem("oraclesNotation", notationBox.open ? "open" : "closed"); } catch (e) { /* no storage */ }
    });
  }
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
  var hintBox = document.getElementById("hint-box");
  var hintButton = document.getElementById("hint-button");
  var hintStatus = document.getElementById("hint-status");
  var hintList = document.getElementById("hint-list");
  var hintAsked = null;     // {id, version} of the hint awaited
  var outbox = [];          // friends.js's messages sent while the socket was down
  var hintShown = null;     // the last hint message, drawn on its version's board
  var HINTS_SHOWN = 3;       // candidates listed before "show all"
  var hintWhy = null;       // the best move's reason, a line under the status (made on first use)
  var seatsSeen = null;     // the last `seats` message's seats, as JSON
  // The old way, a fetch after every state, kept for benchmarks/paint.py
  // to measure beside the pushed board (localStorage.oraclesFetchBoard = "1").
  var askBoard = true;
  try { askBoard = localStorage.getItem("oraclesFetchBoard") !== "1"; } catch (e) { /* no storage */ }

  function setBanner(text, kind) {
    if (!text) { banner.hidden = true; banner.textContent = ""; return; }
    banner.hidden = false;
    banner.className = "banner " + (kind || "");
    banner.textContent = text;
  }

  // ------------------------------------------------------------ socket
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/tables/" + tableId + (askBoard ? (query ? query + "&" : "?") + "board=1" : query));
    var mine = socket;
    socket.onopen = function () {
      attempt = 0;
      reconnected = true;
      lastMessage = Date.now();
      // A hint asked while the socket was down (or on the socket that
      // dropped, whose answer is lost): ask on this one. A table that moved
      // on meanwhile answers "stale", which ends the wait.
      if (hintAsked) send({ type: "hint", version: hintAsked.version, id: hintAsked.id });
      outbox.splice(0).forEach(send);
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

  // The pause before the next try after `attempt` failed ones in a row:
  // doubling from `first` ms up to `most`, spread a quarter either way so
  // that many pages do not all try again at once.
  function backoff(attempt, first, most) {
    return Math.min(most, first * Math.pow(2, attempt)) * (0.75 + Math.random() / 2);
  }

  function lost() {
    wasLost = true;
    setBanner(root.dataset.lost, "lost");
    var delay = backoff(attempt, 500, 10000);
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

  // friends.js (invites, rematch, notices) hears every message and may send;
  // what the socket cannot take now (a name saved while it is down) waits
  // in the outbox for the next one.
  root.addEventListener("oracles:send", function (event) { if (!send(event.detail)) outbox.push(event.detail); });

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
      if (typeof msg.board === "string") { show(msg.board); }
      else { refresh(); }
    } else if (msg.type === "hint") {
      if (hintAsked && msg.id === hintAsked.id) hintAsked = null;
      if (msg.version === shownVersion) { hintShown = msg; drawHint(); }
      updateHintButton();
    } else if (msg.type === "ack") {
      if (pending && msg.id === pending.id) pending = null;
      // A choice held for this seat's turn: the state that shows it made
      // came pushed just before; the old way fetches it.
      if (msg.held && !askBoard) refresh(true);
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
      // Each socket hears the seats once when it connects, as its pushed
      // board was drawn: the board is drawn again only when they change.
      var seatsNow = JSON.stringify(msg.seats);
      if (seatsSeen !== null && seatsNow !== seatsSeen) refresh(true);
      seatsSeen = seatsNow;
    }
    // A rematch is told by friends.js, above the board, in words.
  }

  // ------------------------------------------------------------- board
  var again = false;
  // Fetches that failed in a row: each waits twice as long as the last
  // (backoff, up to 8 s), so a board the server cannot draw is not asked
  // for twenty times a second; from the third the banner says so.
  var failures = 0;
  // A retry waiting out its backoff: a state that comes meanwhile waits for
  // it too (each one fetched at once before, and a failing server was asked
  // as often as the bots moved).
  var retry = null;
  // The board held back while a finished trick is shown (see show()).
  var trickHeldUntil = 0, heldHtml = null, heldVersion = 0, heldTimer = null;
  function latestVersion() { return Math.max(shownVersion, heldVersion); }
  function refresh(force, retrying) {
    if (!force && serverVersion === latestVersion() && !again) return;
    if (fetching || (retry && !retrying)) { again = true; return; }
    retry = null;
    fetching = true;
    again = false;
    fetch("/t/" + tableId + "/board" + query, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        if (failures >= 3 && banner.classList.contains("board-error")) setBanner("");
        failures = 0;
        show(html);
      })
      .catch(function () {
        failures += 1;
        again = true;
        if (failures >= 3) setBanner(root.dataset.boardError, "board-error");
      })
      .then(function () {
        fetching = false;
        if (again || serverVersion > latestVersion()) {
          again = false;
          var wait = failures ? backoff(failures - 1, 250, 8000) : 50;
          retry = setTimeout(function () { refresh(true, true); }, wait);
        }
      });
  }

  // Put a board in the page: pushed with its state, or fetched. A fetched
  // board older than one already shown (a push overtook the fetch) is dropped.
  // (The board's own element comes first, so its version is the first one.)
  function show(html) {
    var made = /data-version="(\d+)"/.exec(html);
    if (made && parseInt(made[1], 10) < shownVersion) return;
    // A finished trick on screen keeps its moment before a newer board
    // replaces it: a bot's lead replaced it within half a second, and the
    // trick's last cards were never seen. The newest board waits meanwhile.
    var wait = trickHeldUntil - Date.now();
    if (wait > 0) {
      var version = made ? parseInt(made[1], 10) : shownVersion;
      if (version >= heldVersion) { heldHtml = html; heldVersion = version; }
      if (!heldTimer) {
        heldTimer = setTimeout(function () {
          heldTimer = null;
          trickHeldUntil = 0;
          var later = heldHtml;
          heldHtml = null;
          heldVersion = 0;
          if (later) show(later);
        }, wait);
      }
      return;
    }
    var focused = document.activeElement;
    // A move played from the hint list: the list goes with the version, so
    // the focus waits on the board.
    var fromHint = focused && hintList && hintList.contains(focused);
    var focusAt = focused && focused !== boardBox && boardBox.contains(focused) ? focusKey(focused)
      : fromHint ? { attr: "id", value: WAITING_SPOT }
      : (!focused || focused === document.body) ? boardFocus : null;
    boardBox.innerHTML = html;
    keepOpenState();
    if (focusAt) refocus(focusAt);
    var board = boardBox.querySelector(".board");
    if (board) {
      shownVersion = parseInt(board.dataset.version, 10);
      root.dataset.version = board.dataset.version;
      myTurn = board.dataset.myTurn === "1";
      if (board.dataset.finished === "1") {
        var replay = document.getElementById("replay-link");
        if (replay) replay.hidden = false;
        if (hintBox) hintBox.hidden = true;  // no decision left to hint at
        if (moveForm) moveForm.hidden = true;  // nor a move to type
        if (notationBox) notationBox.hidden = true;
      }
    }
    cue();
    announceLast();
    startClock();
    startGrace();
    gatherTrick();
    if (hintShown && hintShown.version !== shownVersion) { hintShown = null; }
    drawHint();
    updateHintButton();
    root.dispatchEvent(new CustomEvent("oracles:board", { detail: { version: shownVersion } }));
  }

  // A board drawn anew would drop the keyboard's focus to the page after
  // every move: it goes back to the same piece, or (the card was played) to
  // the first piece that can be played, else the first piece at all.
  // boardFocus is where the keyboard was on the board, kept while the focus
  // is lost with it (a piece disabled as its move goes out, or drawn away)
  // and forgotten when the player moves the focus elsewhere on the page.
  var boardFocus = null;
  boardBox.addEventListener("focusin", function (event) { boardFocus = focusKey(event.target); });
  boardBox.addEventListener("focusout", function (event) {
    if (event.relatedTarget && !boardBox.contains(event.relatedTarget)) boardFocus = null;
  });
  function focusKey(el) {
    var keys = ["data-pick", "data-verb", "data-move", "data-keep", "id"];
    for (var i = 0; i < keys.length; i++) {
      var value = el.getAttribute(keys[i]);
      if (value) return { attr: keys[i], value: value };
    }
    return { attr: null, value: null };
  }
  // Where the focus waits when no piece is left to hold it (the card just
  // played, a hand drawn as pictures while others play): the status line,
  // which says whose turn it is. It went to the page before.
  var WAITING_SPOT = "status";
  function refocus(key) {
    var found = null;
    var waited = key.attr === "id" && key.value === WAITING_SPOT;
    if (key.attr && !waited) {
      var all = boardBox.querySelectorAll("[" + key.attr + "]");
      for (var i = 0; i < all.length && !found; i++) {
        if (all[i].getAttribute(key.attr) === key.value) found = all[i];
      }
    }
    // A piece is gone (played) or the wait is over: the first choice of what
    // to do (Codename's actions), else the first piece that can be played,
    // else (a piece was held) the first of the board's home for the focus
    // ([data-focus-home]: Codename's own Mind-field; after a peek the focus
    // went to the opponent's guess symbols, the first piece in the page),
    // else the first at all.
    found = found || boardBox.querySelector("[data-verb][data-legal]")
      || boardBox.querySelector("[data-pick][data-legal]")
      || (waited || key.attr === "data-keep" ? null
        : boardBox.querySelector("[data-focus-home] [data-pick]") || boardBox.querySelector("[data-pick], [data-move]"))
      || document.getElementById(WAITING_SPOT);
    if (found && found.focus) found.focus({ preventScroll: true });
  }
  // A <details> the player opened or closed stays so when the board is
  // drawn anew ("Last trick" closed itself at every move).
  var openState = {};
  boardBox.addEventListener("toggle", function (event) {
    var key = event.target.getAttribute && event.target.getAttribute("data-keep");
    if (key && event.isTrusted) openState[key] = event.target.open;
  }, true);
  function keepOpenState() {
    boardBox.querySelectorAll("details[data-keep]").forEach(function (box) {
      var key = box.getAttribute("data-keep");
      if (key in openState && box.open !== openState[key]) box.open = openState[key];
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

  // The pieces' clicks are put together into a move by compose.js, which
  // plays it through here.
  window.OraclesTable = { play: play };

  var button = window.oraclesButton;

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-move],[data-rematch]") : null;
    if (!target || !root.contains(target)) return;
    if (target.hasAttribute("data-rematch")) { rematch(target); return; }
    if (!root.dataset.token) return;
    if (target.hasAttribute("data-move")) { play(target.dataset.move); return; }
  });

  function rematch(node) {
    node.disabled = true;
    fetch("/api/tables/" + tableId + "/rematch" + query, { method: "POST", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (answer) { if (answer.url) location.href = answer.url; else { node.disabled = false; say(answer.error || ""); } })
      .catch(function () { node.disabled = false; });
  }

  // The live region: what happened since it last spoke, each story line
  // once, then the status. (Saying the newest line alone lost the lines
  // that came with it: a trick's last card before its winner, a round's
  // score before the next deal.)
  var announce = document.getElementById("announce");
  var saidUpTo = null;  // the number (data-n) of the last story line said
  var saidStatus = "";
  // At most this many lines at once (a reconnect may bring many).
  var MOST_LINES = 12;
  function say(text) { if (announce && text) { announce.textContent = ""; announce.textContent = text; } }
  function sentence(text) { return /[.!?…:]$/.test(text) ? text : text + "."; }
  function announceLast() {
    var lines = Array.prototype.slice.call(boardBox.querySelectorAll(".log li[data-n]"));
    var newest = lines.length ? parseInt(lines[0].dataset.n, 10) : 0;
    var fresh = [];
    if (saidUpTo === null) {
      // The page just opened: the newest line only (the rest is history).
      if (lines.length) fresh = [lines[0]];
    } else {
      fresh = lines.filter(function (li) { return parseInt(li.dataset.n, 10) > saidUpTo; });
    }
    saidUpTo = newest;
    fresh = fresh.slice(0, MOST_LINES).reverse();  // oldest first
    var told = fresh.map(function (li) { return sentence(li.textContent.trim()); }).join(" ");
    var status = document.getElementById("status");
    var board = boardBox.querySelector(".board");
    var over = board && board.dataset.finished === "1";
    // At the end the whole status (who won, the hints taken); before, its
    // first line (whose turn), without the last event it repeats.
    var statusText = "";
    if (status) {
      var copy = status.cloneNode(true);
      copy.querySelectorAll(".last-event, .replay-now").forEach(function (node) { node.remove(); });
      statusText = over ? copy.textContent.replace(/\s+/g, " ").trim() : copy.textContent.trim().split("\n")[0].trim();
    }
    if (over) {
      var places = boardBox.querySelectorAll(".standings li");
      if (places.length) {
        statusText += " " + Array.prototype.map.call(places, function (li) { return sentence(li.textContent.trim()); }).join(" ");
      }
    }
    // What the game asks now, where its board says (Codename: answer the strike or not).
    var asked = myTurn ? boardBox.querySelector("[data-announce]") : null;
    if (asked) statusText += " " + sentence(asked.textContent.replace(/\s+/g, " ").trim());
    if (!told && statusText === saidStatus) return;  // nothing new to say
    saidStatus = statusText;
    say((told ? told + " " : "") + statusText);
  }

  // ------------------------------------------------------------- clocks
  // The board draws the seconds left (data-clock-left) when it was made;
  // counted down here, with a warning before a bot moves for this seat.
  var clockTimer = null;
  function startClock() {
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    var node = boardBox.querySelector("[data-clock-left]");
    if (!node) { if (banner.classList.contains("clock-warning")) setBanner(""); return; }
    var ends = Date.now() + parseFloat(node.dataset.clockLeft) * 1000;
    var mine = node.dataset.clockMine === "1";
    function tick() {
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      node.textContent = left + " s";
      node.classList.toggle("warn", left <= 5);
      if (mine && left <= 5 && left > 0) setBanner(root.dataset.clockWarning.replace("{seconds}", String(left)), "clock-warning");
      if (left === 0) { clearInterval(clockTimer); clockTimer = null; }
    }
    tick();
    clockTimer = setInterval(tick, 250);
  }

  // A person who left gets a grace before a bot plays for them: the board
  // draws its seconds (data-standin-in), counted down here so the others
  // know how long to wait. The seats message that seats the bot redraws it.
  var graceTimer = null;
  function startGrace() {
    if (graceTimer) { clearInterval(graceTimer); graceTimer = null; }
    var nodes = Array.prototype.slice.call(boardBox.querySelectorAll("[data-standin-in]"));
    if (!nodes.length) return;
    var begun = Date.now();
    function tick() {
      var gone = (Date.now() - begun) / 1000;
      nodes.forEach(function (node) {
        var left = Math.max(0, Math.ceil(parseFloat(node.dataset.standinIn) - gone));
        node.textContent = node.dataset.words.replace("{seconds}", String(left));
      });
    }
    tick();
    graceTimer = setInterval(tick, 1000);
  }

  // ------------------------------------------------- a finished trick
  // A finished trick stays a moment with its winner named, then its cards
  // go to the winner's seat (a fade only where motion is reduced).
  function gatherTrick() {
    var done = boardBox.querySelector("[data-finished-trick]");
    if (!done) return;
    var pause = parseInt(window.localStorage && localStorage.getItem("oraclesTrickPause") || "1600", 10);
    // The pause and the cards' flight (.6 s) before a newer board may come.
    if (pause > 0) trickHeldUntil = Date.now() + pause + 600;
    var winner = boardBox.querySelector(".felt .seat.spot-" + done.dataset.winnerSpot);
    setTimeout(function () {
      if (!done.isConnected || !winner) return;
      var to = winner.getBoundingClientRect();
      done.querySelectorAll(".laid").forEach(function (laid) {
        var from = laid.getBoundingClientRect();
        laid.style.setProperty("--dx", (to.left + to.width / 2 - from.left - from.width / 2) + "px");
        laid.style.setProperty("--dy", (to.top + to.height / 2 - from.top - from.height / 2) + "px");
      });
      done.classList.add("gather");
    }, pause);
  }

  if (moveForm) {
    moveForm.addEventListener("submit", function (event) {
      event.preventDefault();
      play(moveInput.value);
      moveInput.value = "";
    });
  }

  // -------------------------------------------------------------- hints
  // The server answers a hint only to this socket, for the version asked:
  // the candidates are listed with their values and marked on the board.
  // Points with one decimal as the page's language writes them ("+3,5" in German).
  const oneDecimal = new Intl.NumberFormat(document.documentElement.lang || "en", {
    minimumFractionDigits: 1, maximumFractionDigits: 1,
  });
  function signedPoints(value) {
    return (value >= 0 ? "+" : "") + oneDecimal.format(value);
  }
  function formatValue(value, unit) {
    if (unit === "win chance") return Math.round(value * 100) + "% " + hintBox.dataset.chance;
    return signedPoints(value) + " " + hintBox.dataset.points;
  }
  function updateHintButton() {
    if (!hintButton) return;
    // aria-disabled, not disabled: a disabled button drops the keyboard's
    // focus to the page (pressing Hint lost it while the answer came).
    hintButton.setAttribute("aria-disabled", !myTurn || hintAsked !== null ? "true" : "false");
  }
  function drawHint() {
    if (!hintBox) return;
    document.querySelectorAll(".hinted").forEach(function (n) {
      n.classList.remove("hinted", "hint-best");
      delete n.dataset.hintValue;
    });
    hintList.innerHTML = "";
    if (!hintWhy) {
      hintWhy = document.createElement("p");
      hintWhy.id = "hint-why";
      hintWhy.className = "hint-why";
      hintWhy.setAttribute("aria-live", "polite");
      hintStatus.insertAdjacentElement("afterend", hintWhy);
    }
    hintWhy.textContent = "";
    hintWhy.hidden = true;
    hintList.classList.remove("all");
    var more = document.getElementById("hint-more");
    if (more) more.remove();
    if (!hintShown) { if (!hintAsked) hintStatus.textContent = ""; return; }
    var moves = hintShown.moves;
    // Values all alike: naming one "best" would only name the first listed.
    var tied = moves.length > 1 && moves[0].value - moves[moves.length - 1].value < 1e-9;
    var bestWords = moves.length && moves[0].label ? moves[0].label : hintShown.best;
    // A move the rules force is not "best": the hint still tells its outlook.
    var shownBoard = boardBox.querySelector(".board");
    var forced = moves.length === 1 && shownBoard && shownBoard.dataset.forced === "1";
    var headline = forced ? hintBox.dataset.only + " " + bestWords
      : tied ? hintBox.dataset.tied : hintBox.dataset.best + " " + bestWords;
    hintStatus.textContent = headline + " · " +
      hintBox.dataset.worlds.replace("{count}", String(hintShown.worlds));
    // Why the best move, in words (the server's, in this page's language).
    if (!tied && moves.length && moves[0].why) {
      hintWhy.textContent = moves[0].why;
      hintWhy.hidden = false;
    }
    hintShown.moves.forEach(function (m, index) {
      var li = document.createElement("li");
      if (index === 0 && !tied) li.className = "hint-best";
      // Each candidate's reason (what it does better or worse) on hovering it.
      if (m.why) { li.title = m.why; li.dataset.why = m.why; }
      // The move in words; its notation beside "play it" on hovering.
      var b = button(m.label || m.action, { move: m.action });
      b.title = hintBox.dataset.play + " (" + m.action + ")";
      li.appendChild(b);
      var value = document.createElement("span");
      value.className = "hint-value";
      value.textContent = formatValue(m.value, hintShown.unit) + " (± " + (hintShown.unit === "win chance" ? Math.round(m.margin * 100) + "%" : oneDecimal.format(m.margin)) + ")";
      li.appendChild(value);
      // In sight under the move (a phone cannot hover); the best one's
      // reason stands above the list already.
      if (m.why && (index > 0 || tied)) {
        var why = document.createElement("small");
        why.className = "hint-line-why";
        why.textContent = m.why;
        li.appendChild(why);
      }
      hintList.appendChild(li);
      boxMoves(m.action).forEach(function (node) {
        node.classList.add("hinted");
        if (index === 0 && !tied) node.classList.add("hint-best");
        // Short on the card itself: the list says the unit.
        node.dataset.hintValue = hintShown.unit === "win chance" ? Math.round(m.value * 100) + "%" : signedPoints(m.value);
      });
    });
    // The first three in sight, the rest a tap away: on a phone the whole
    // list pushed the board, and the cards it marks, off the screen.
    if (hintShown.moves.length > HINTS_SHOWN) {
      more = button(hintBox.dataset.more.replace("{count}", String(hintShown.moves.length)), {});
      more.id = "hint-more";
      more.addEventListener("click", function () {
        hintList.classList.add("all");
        // The focus goes on to the first candidate just shown (the button
        // pressed is gone).
        var first = hintList.querySelectorAll("li")[HINTS_SHOWN];
        more.remove();
        var button = first && first.querySelector("button");
        if (button) button.focus();
      });
      hintList.insertAdjacentElement("afterend", more);
    }
    // A move of several parts (keep O06 O36, reveal a1 …): mark the best
    // move's parts on the board.
    var words = hintShown.best.split(" ").slice(1);
    if (!tied && !boxMoves(hintShown.best).length) {
      words.forEach(function (word) {
        boardBox.querySelectorAll("[data-pick],[data-token]").forEach(function (n) {
          if ((n.dataset.pick || n.dataset.token || "").toLowerCase() === word.toLowerCase()) n.classList.add("hinted", "hint-best");
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
      // Not connected yet (a click as the page opens) or connection lost:
      // the socket asks when it opens.
      send({ type: "hint", version: shownVersion, id: hintAsked.id });
      hintStatus.textContent = hintBox.dataset.wait;
      updateHintButton();
    });
  }

  // --------------------------------------------------------------- chat
  var chatLines = document.getElementById("chat-lines");
  function addChat(msg) {
    var li = document.createElement("li");
    // The server escapes names and texts (SPEC: chat is HTML-escaped).
    // A watcher's line is named in the page's language (the server says "spectator").
    var who = msg.seat === null || msg.seat === undefined ? root.dataset.spectator : msg.name;
    // A seat nobody named is called as the board calls it ("Platz 1", not "Seat 1").
    var unnamed = /^Seat (\d+)$/.exec(who || "");
    if (unnamed && root.dataset.seatWord) who = root.dataset.seatWord.replace("{seat}", unnamed[1]);
    li.innerHTML = "<b>" + (who || "") + "</b>: " + (msg.text || "");
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

  startClock();
  startGrace();
  myTurn = (boardBox.querySelector(".board") || { dataset: {} }).dataset.myTurn === "1";
  cue();
  updateHintButton();
  connect();
})();
