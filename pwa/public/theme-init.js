// Applies the stored theme before first paint. Loaded synchronously from index.html's <head>
// because the Content-Security-Policy allows no inline script. Mirrors src/theme/theme.ts
// (THEME_STORAGE_KEY, parse, resolve, apply); src/theme/theme.test.ts checks that they agree.
/* global window, document */
(function () {
  var preference = "system";
  try {
    var stored = window.localStorage.getItem("patrimonio.theme");
    if (stored === "light" || stored === "dark" || stored === "system") preference = stored;
  } catch {
    // Storage blocked: keep the default.
  }
  var dark =
    preference === "dark" ||
    (preference === "system" &&
      typeof window.matchMedia === "function" &&
      window.matchMedia("(prefers-color-scheme: dark)").matches);
  var theme = dark ? "dark" : "light";
  var root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.setAttribute("data-theme", theme);
  root.style.colorScheme = theme;
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute("content", dark ? "#111318" : "#ffffff");
})();
