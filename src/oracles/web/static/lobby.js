// Show only as many seat choices as the table has players.
document.querySelectorAll("form.create").forEach(function (form) {
  var players = form.querySelector("[data-players]");
  function update() {
    var count = players ? parseInt(players.value, 10) || 0 : 2;
    form.querySelectorAll(".seat-field").forEach(function (field) {
      field.hidden = parseInt(field.dataset.seatIndex, 10) >= count;
    });
  }
  if (players) players.addEventListener("input", update);
  update();
});
