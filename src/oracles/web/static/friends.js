// Playing with friends (web/friends.py): the seats this browser holds are
// kept in localStorage ("your tables" in the lobby), and so is the name one
// plays under; on the table page it makes the waiting room, the invite
// links, the rematch and the stand-in notice live, and tells a person whose
// tab is in the background that it is their turn (Notification API).
// table.js owns the socket: it hands every message to us as an
// "oracles:message" event, and sends what we give it as "oracles:send".
(function () {
  "use strict";
  var SEATS = "oracles.seats";
  var NAME = "oracles.name";

  function load(key, fallback) {
    try { var value = JSON.parse(localStorage.getItem(key)); return value === null ? fallback : value; }
    catch (e) { return fallback; }
  }
  function save(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  function remember(tableId, entry) {
    var seats = load(SEATS, {});
    if (typeof seats !== "object" || Array.isArray(seats)) seats = {};
    seats[tableId] = Object.assign(seats[tableId] || {}, entry, { at: Date.now() });
    var ids = Object.keys(seats).sort(function (a, b) { return seats[b].at - seats[a].at; });
    ids.slice(50).forEach(function (id) { delete seats[id]; });  // the newest fifty
    save(SEATS, seats);
  }
  function myName() { var name = load(NAME, ""); return typeof name === "string" ? name : ""; }
  function keepName(name) { name = (name || "").trim(); if (name) save(NAME, name.slice(0, 40)); }

  function copy(text, button) {
    function done() { var was = button.textContent; button.textContent = (document.getElementById("friends") || {dataset: {}}).dataset.copied || "✓"; setTimeout(function () { button.textContent = was; }, 1500); }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () {});
      return;
    }
    var area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* the link is on the page */ }
    document.body.removeChild(area);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (button) copy(button.dataset.copy, button);
  });

  // ------------------------------------------------------ invite page
  var invite = document.getElementById("invite");
  if (invite) {
    var nameInput = document.getElementById("name");
    if (nameInput && !nameInput.value) nameInput.value = myName();
    var sit = document.getElementById("sit-form");
    if (sit) sit.addEventListener("submit", function () { keepName(nameInput.value); });
  }

  // ------------------------------------------------------------ lobby
  document.querySelectorAll("[data-my-name]").forEach(function (input) {
    if (!input.value) input.value = myName();
    if (input.form) input.form.addEventListener("submit", function () { keepName(input.value); });
  });
  var yours = document.getElementById("your-tables");
  if (yours) {
    var list = document.getElementById("your-tables-list");
    var seats = load(SEATS, {});
    if (typeof seats !== "object" || Array.isArray(seats)) seats = {};
    var ids = Object.keys(seats).sort(function (a, b) { return seats[b].at - seats[a].at; }).slice(0, 20);
    // One request for all of them: the server names the players in the
    // page's language and lists each table once, newest first.
    var query = ids.map(function (id) { return "t=" + encodeURIComponent(id + ":" + seats[id].seat); }).join("&");
    if (ids.length) fetch("/your-tables?" + query, { cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
      .then(function (answer) {
        answer.gone.forEach(function (id) { delete seats[id]; });
        if (answer.gone.length) save(SEATS, seats);
        list.innerHTML = answer.html;
        var when = window.Intl && Intl.RelativeTimeFormat
          ? new Intl.RelativeTimeFormat(document.documentElement.lang || "en", { numeric: "always" }) : null;
        list.querySelectorAll("[data-your-table]").forEach(function (li) {
          var entry = seats[li.dataset.yourTable];
          if (!entry) return;
          li.querySelector("[data-seat-link]").href = "/t/" + encodeURIComponent(li.dataset.yourTable) + "?token=" + encodeURIComponent(entry.token);
          var opened = li.querySelector("[data-opened]");
          if (opened && when && entry.at) opened.textContent = yours.dataset.opened.replace("{when}", ago(when, entry.at));
        });
        yours.hidden = !list.children.length;
      })
      .catch(function () { /* the lobby works without the list */ });
  }
  // "3 minutes ago": the largest unit that fits.
  function ago(format, at) {
    var seconds = Math.round((at - Date.now()) / 1000);
    var units = [["day", 86400], ["hour", 3600], ["minute", 60]];
    for (var i = 0; i < units.length; i++) {
      if (Math.abs(seconds) >= units[i][1]) return format.format(Math.round(seconds / units[i][1]), units[i][0]);
    }
    return format.format(Math.min(-1, seconds), "second");
  }

  // ------------------------------------------------------- table page
  var root = document.getElementById("table");
  var panel = document.getElementById("friends");
  if (!root || !panel) return;
  var tableId = root.dataset.table;
  var token = root.dataset.token;
  var seat = root.dataset.seat === "" ? null : parseInt(root.dataset.seat, 10);
  if (token && seat !== null) remember(tableId, { token: token, seat: seat, game: panel.dataset.game });

  function post(path, body) {
    var headers = { "x-oracles-token": token || "" };
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(path, { method: "POST", headers: headers, cache: "no-store",
                         body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (response) { return response.json().then(function (answer) { return { ok: response.ok, body: answer }; }); });
  }
  function tell(kind, detail) { root.dispatchEvent(new CustomEvent(kind, { detail: detail })); }

  var start = panel.querySelector("[data-start]");
  if (start) start.addEventListener("click", function () {
    start.disabled = true;
    var bot = start.getAttribute("data-bot");
    post("/api/tables/" + tableId + "/start", bot ? { bot: bot } : undefined).then(function () { start.hidden = true; });
  });
  // A name, kept for next time; a seat still under its default name takes it.
  var nameBox = document.getElementById("my-name");
  var nameButton = panel.querySelector("[data-name]");
  var named = false;
  function sendName(name) {
    name = (name || "").trim();
    if (!name) return;
    keepName(name);
    tell("oracles:send", { type: "name", name: name.slice(0, 40) });
  }
  if (nameButton) nameButton.addEventListener("click", function () { sendName(nameBox.value); });
  if (nameBox) nameBox.addEventListener("keydown", function (event) { if (event.key === "Enter") sendName(nameBox.value); });

  var notify = panel.querySelector("[data-notify]");
  var finishedAtLoad = panel.dataset.finished === "1";
  if (notify && !finishedAtLoad && "Notification" in window && Notification.permission === "default") {
    notify.hidden = false;
    notify.addEventListener("click", function () {
      Notification.requestPermission().then(function () { notify.hidden = true; });
    });
  }
  var turnWas = false;
  function turnNote(mine) {
    if (mine && !turnWas && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(panel.dataset.turnNote, { tag: "oracles-" + tableId }); } catch (e) { /* not allowed here */ }
    }
    turnWas = mine;
  }

  function seatNames() {
    return fetch("/api/tables/" + tableId, { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (info) { return info.seats.map(function (s) { return s.name; }); });
  }

  // News for a person at the table (the stand-in's moves, a rematch):
  // above the board, where the eye is, not under the story.
  function aboveBoard(node) {
    var boardBox = document.getElementById("board");
    if (boardBox && node.compareDocumentPosition(boardBox) & Node.DOCUMENT_POSITION_PRECEDING) {
      boardBox.parentNode.insertBefore(node, boardBox);
    }
  }

  root.addEventListener("oracles:message", function (event) {
    var msg = event.detail;
    if (msg.type === "state") {
      if (!named && nameBox && seat !== null && !nameBox.value && myName()) {
        nameBox.value = myName();
        sendName(myName());
      }
      named = true;
      if (!msg.waiting) document.getElementById("friends-waiting").hidden = true;
      if (msg.status === "finished" && notify) notify.hidden = true;  // no turn left to be told of
      if (seat !== null) turnNote(msg.legal && msg.legal.length > 0);
    } else if (msg.type === "seats" && msg.seats) {
      // A seat taken: its invite link is used up.
      msg.seats.forEach(function (s) {
        if (s.open) return;
        var item = panel.querySelector('[data-invite-seat="' + s.seat + '"]');
        if (item) item.parentNode.removeChild(item);
      });
      // Every seat taken: nothing is left to invite to (the table's own
      // link, for watchers, stays below).
      var invites = panel.querySelector("details.invites");
      if (invites && !invites.querySelector("[data-invite-seat]")) invites.parentNode.removeChild(invites);
    } else if (msg.type === "started") {
      document.getElementById("friends-waiting").hidden = true;
      if (start) start.hidden = true;
    } else if (msg.type === "standin") {
      var note = document.getElementById("standin-note");
      note.textContent = panel.dataset.standin + " " + msg.moves.map(function (m) { return m.label || m.action; }).join(", ");
      note.hidden = false;
      aboveBoard(note);
    } else if (msg.type === "rematch" && msg.wants) {
      seatNames().then(function (names) {
        var box = document.getElementById("rematch-box");
        var wants = document.getElementById("rematch-wants");
        if (!box || !wants) return;
        // Who asked goes to the new table at once; the others are told here.
        var others = msg.wants.filter(function (s) { return s !== seat; });
        if (!others.length) return;
        wants.textContent = panel.dataset.wants + " " + others.map(function (s) { return names[s]; }).join(", ");
        wants.dataset.wants = msg.wants.join(",");
        var watch = document.getElementById("rematch-watch");
        if (watch && msg.watch) watch.href = msg.watch;
        box.hidden = false;
        aboveBoard(box);
      });
    }
  });
})();
