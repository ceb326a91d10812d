// The language switch: remember the choice in a cookie and reload this
// page (its address may hold the seat's token, which must stay).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.lang-switch");
  if (!link) return;
  event.preventDefault();
  document.cookie = "oracles_lang=" + link.dataset.lang + "; path=/; max-age=31536000; samesite=lax";
  location.reload();
});
