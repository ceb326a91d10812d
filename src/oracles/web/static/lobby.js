// Show only as many seat choices as the table has players.
document.querySelectorAll("form.create").forEach(function (form) {
  var players = form.querySelector("[data-players]");
  function update() {
    var count = players ? parseInt(players.value, 10) || 0 : 2;
    form.querySelectorAll(".seat-field").forEach(function (field) {
      field.hidden = parseInt(field.dataset.seatIndex, 10) >= count;
    });
    // A number that follows the player count shows the usual one for it.
    form.querySelectorAll("[data-per-players]").forEach(function (input) {
      var usual = JSON.parse(input.dataset.perPlayers)[String(count)];
      if (usual !== undefined) input.placeholder = String(usual);
    });
  }
  if (players) players.addEventListener("input", update);
  update();
});
