// A small, tolerant reader of XML (CAMT.053, OFX 2) and OFX 1's SGML (tags that need not be
// closed), without DOMParser so that it also runs in a Web Worker and in Node. It builds a tree of
// elements with their attributes, text and line numbers; namespace prefixes are dropped. Unknown
// entities, unbalanced closing tags and unterminated markup are errors naming the line.
import { StatementError, type Progress } from "./types";

export interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Element[];
  text: string;
  line: number;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function unescape(text: string, line: number): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (_, e: string) => {
    if (e.startsWith("#x")) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(parseInt(e.slice(1), 10));
    const v = ENTITIES[e];
    if (v === undefined) throw new StatementError(line, "statementImport.errors.markup", { detail: `&${e};` });
    return v;
  });
}

function localName(name: string): string {
  const i = name.indexOf(":");
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * Reads markup into a root element named "#root". With `sgml`, an element whose closing tag is
 * missing ends where its parent closes (OFX 1: `<TRNAMT>-12.50` with no `</TRNAMT>`), and a leaf's
 * text is the text up to the next tag.
 */
export function readMarkup(input: string, sgml = false, onProgress?: Progress): Element {
  const root: Element = { name: "#root", attrs: {}, children: [], text: "", line: 1 };
  const stack: Element[] = [root];
  let line = 1;
  let i = 0;
  let told = 0;
  const advance = (to: number): void => {
    if (onProgress && to - told > 65_536) {
      told = to;
      onProgress(to / input.length);
    }
    for (let k = i; k < to; k++) if (input.charCodeAt(k) === 10) line++;
    i = to;
  };
  while (i < input.length) {
    const lt = input.indexOf("<", i);
    const textEnd = lt < 0 ? input.length : lt;
    if (textEnd > i) {
      const raw = input.slice(i, textEnd);
      const top = stack[stack.length - 1];
      if (top && raw.trim() !== "") top.text += unescape(raw, line);
      advance(textEnd);
      if (lt < 0) break;
    }
    const startLine = line;
    if (input.startsWith("<!--", i)) {
      const end = input.indexOf("-->", i + 4);
      if (end < 0) throw new StatementError(startLine, "statementImport.errors.markup", { detail: "<!--" });
      advance(end + 3);
      continue;
    }
    if (input.startsWith("<![CDATA[", i)) {
      const end = input.indexOf("]]>", i + 9);
      if (end < 0) throw new StatementError(startLine, "statementImport.errors.markup", { detail: "CDATA" });
      const top = stack[stack.length - 1];
      if (top) top.text += input.slice(i + 9, end);
      advance(end + 3);
      continue;
    }
    const gt = input.indexOf(">", i);
    if (gt < 0) throw new StatementError(startLine, "statementImport.errors.markup", { detail: input.slice(i, i + 20) });
    const tag = input.slice(i + 1, gt);
    advance(gt + 1);
    if (tag.startsWith("?") || tag.startsWith("!")) continue;
    if (tag.startsWith("/")) {
      const name = localName(tag.slice(1).trim());
      // SGML: close every open element up to the named one; XML: it must be the innermost.
      let k = stack.length - 1;
      while (k > 0 && stack[k]?.name !== name) {
        if (!sgml) throw new StatementError(startLine, "statementImport.errors.markupClose", { found: name, expected: stack[k]?.name ?? "" });
        k--;
      }
      if (k === 0) throw new StatementError(startLine, "statementImport.errors.markupClose", { found: name, expected: stack[stack.length - 1]?.name ?? "" });
      stack.length = k;
      continue;
    }
    const selfClosing = tag.endsWith("/");
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const m = /^([^\s/>]+)([\s\S]*)$/.exec(body.trim());
    if (!m?.[1]) throw new StatementError(startLine, "statementImport.errors.markup", { detail: `<${tag}>` });
    const attrs: Record<string, string> = {};
    for (const a of (m[2] ?? "").matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
      if (a[1]) attrs[localName(a[1])] = unescape(a[3] ?? a[4] ?? "", startLine);
    }
    const el: Element = { name: localName(m[1]), attrs, children: [], text: "", line: startLine };
    let parent = stack[stack.length - 1] as Element;
    // SGML: an open element that already holds text is a leaf whose closing tag was left out.
    if (sgml && parent !== root && parent.text.trim() !== "" && parent.children.length === 0) {
      stack.pop();
      parent = stack[stack.length - 1] as Element;
    }
    parent.children.push(el);
    if (!selfClosing) stack.push(el);
  }
  if (!sgml && stack.length > 1) {
    const open = stack[stack.length - 1] as Element;
    throw new StatementError(open.line, "statementImport.errors.markupUnclosed", { name: open.name });
  }
  return root;
}

export function child(el: Element | undefined, name: string): Element | undefined {
  return el?.children.find((c) => c.name === name);
}

export function children(el: Element | undefined, name: string): Element[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** The element at a path of child names, e.g. path(ntry, "BookgDt", "Dt"). */
export function path(el: Element | undefined, ...names: string[]): Element | undefined {
  let cur = el;
  for (const n of names) cur = child(cur, n);
  return cur;
}

export function textAt(el: Element | undefined, ...names: string[]): string | undefined {
  const t = path(el, ...names)?.text.trim();
  return t === undefined || t === "" ? undefined : t;
}

/** Every descendant (depth first) with that name. */
export function descendants(el: Element, name: string): Element[] {
  const out: Element[] = [];
  const walk: Element[] = [el];
  while (walk.length > 0) {
    const cur = walk.pop() as Element;
    for (let k = cur.children.length - 1; k >= 0; k--) {
      const c = cur.children[k] as Element;
      if (c.name === name) out.push(c);
      walk.push(c);
    }
  }
  return out;
}
