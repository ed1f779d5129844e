// Starts the browser's download of a text made on the device (the asset CSV, the data export):
// nothing goes through the server, so it works offline.

/** Downloads `text` as `fileName` with the given media type (UTF-8). */
export function downloadText(fileName: string, text: string, type: string): void {
  const blob = new Blob([text], { type: `${type};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
