// Which format a file is, and its text: Norma 43 is Latin-1 (unless re-saved as UTF-8); OFX 1 says its charset in its header;
// XML says its encoding in its declaration; CSV is UTF-8 unless it is not valid UTF-8 (then the
// Windows/Latin-1 export of most Spanish banks). A UTF-16 byte-order mark (Excel's "Unicode text")
// wins over all of these.
import type { StatementFormat } from "./types";

function latin1(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}

function utf8OrLatin1(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return latin1(bytes);
  }
}

/** Norma 43 is Latin-1, but an editor or a mail client may have re-saved it as UTF-8: with a
 * byte-order mark, or as valid UTF-8 with multi-byte characters ("Ó" as C3 93), which Latin-1 would
 * read as "Ã“" and import garbled. (Latin-1 Spanish text is practically never valid UTF-8: a
 * lone accented letter is an invalid byte.) */
function norma43Text(bytes: Uint8Array): string {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  // Plain ASCII reads the same either way.
  return utf8OrLatin1(bom ? bytes.subarray(3) : bytes);
}

/** The UTF-16 of a file with a UTF-16 byte-order mark (Excel's "Unicode text" export, tab-separated),
 * or undefined. Read as Latin-1 it would be every other character a NUL and no column would parse. */
function utf16Encoding(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/** The format of a file from its first bytes (and its name as a hint for CSV). */
export function detectFormat(bytes: Uint8Array, fileName = ""): StatementFormat | undefined {
  const utf16 = utf16Encoding(bytes);
  const head = (utf16 ? new TextDecoder(utf16).decode(bytes.subarray(0, 8192)) : latin1(bytes.subarray(0, 4096))).replace(/^\uFEFF|^ï»¿/, "");
  const start = head.trimStart();
  if (/^OFXHEADER|<OFX>/i.test(start) || /<\?OFX/i.test(head)) return "ofx";
  if (/<\?xml|<Document/.test(start) && /camt\.053|BkToCstmrStmt/.test(head)) return "camt053";
  const first = start.split(/\r\n|\n|\r/)[0] ?? "";
  if (/^11\d{30}/.test(first) && first.replace(/\s+$/, "").length <= 80) return "norma43";
  if (/\.(csv|txt)$/i.test(fileName) || /[;,\t]/.test(first)) return "csv";
  return undefined;
}

/** The file's text in the encoding its format uses. */
export function decodeStatement(bytes: Uint8Array, format: StatementFormat): string {
  // A UTF-16 byte-order mark says the encoding whatever the format (its declaration would be read wrongly).
  const utf16 = utf16Encoding(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  if (format === "norma43") return norma43Text(bytes);
  if (format === "ofx") {
    const head = latin1(bytes.subarray(0, 1024));
    if (/CHARSET:\s*(1252|8859-1|ISO-8859-1)/i.test(head) || /encoding=["']?(iso-8859-1|windows-1252)/i.test(head)) return latin1(bytes);
    return utf8OrLatin1(bytes);
  }
  if (format === "camt053") {
    const head = latin1(bytes.subarray(0, 200));
    if (/encoding=["'](iso-8859-1|windows-1252|latin1)["']/i.test(head)) return latin1(bytes);
    return new TextDecoder("utf-8").decode(bytes);
  }
  return utf8OrLatin1(bytes);
}
