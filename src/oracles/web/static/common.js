// The language switch: remember the choice in a cookie and reload this
// page (its address may hold the seat's token, which must stay).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.lang-switch");
  if (!link) return;
  event.preventDefault();
  document.cookie = "oracles_lang=" + link.dataset.lang + "; path=/; max-age=31536000; samesite=lax";
  location.reload();
});

// A button with its text and data-* attributes (the table's composer and
// hints both make them).
window.oraclesButton = function (text, data) {
  var b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  Object.keys(data).forEach(function (k) { b.setAttribute("data-" + k, data[k]); });
  return b;
};
