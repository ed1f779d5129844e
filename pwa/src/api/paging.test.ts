import { describe, expect, test } from "vitest";
import { linkWithRel, pageFromHeaders, windowOfUrl } from "./paging";

describe("linkWithRel", () => {
  test.each([
    ["the server's own header", '</api/v1/admin/users?limit=25&offset=25>; rel="next"', "/api/v1/admin/users?limit=25&offset=25"],
    ["a bare rel value", "</users?offset=10>; rel=next", "/users?offset=10"],
    ["the right one of several links", '</a?offset=0>; rel="prev", </a?offset=20>; rel="next"', "/a?offset=20"],
    ["one of several relations in one rel", '</a?offset=5>; rel="next last"', "/a?offset=5"],
    ["a rel in capitals, with other parameters around it", '</a?offset=5>; title="Más"; REL="Next"; type="application/json"', "/a?offset=5"],
    ["a comma inside the URL", '</a?search=x,y&offset=5>; rel="next"', "/a?search=x,y&offset=5"],
  ])("finds the next link in %s", (_name, header, url) => {
    expect(linkWithRel(header, "next")).toBe(url);
  });

  test.each([
    ["no header", null],
    ["an empty header", ""],
    ["only other relations", '</a?offset=0>; rel="prev"'],
    ["a relation that only starts like next", '</a?offset=0>; rel="nextpage"'],
    ["something that is not a Link header", "next"],
  ])("finds nothing in %s", (_name, header) => {
    expect(linkWithRel(header, "next")).toBeNull();
  });
});

describe("windowOfUrl", () => {
  test("reads offset and limit from the query string, relative or absolute", () => {
    expect(windowOfUrl("/api/v1/admin/users?search=ana&limit=10&offset=30", 25)).toEqual({ offset: 30, limit: 10 });
    expect(windowOfUrl("https://app.example/api/v1/admin/users?offset=5", 25)).toEqual({ offset: 5, limit: 25 });
  });

  test.each([
    ["no offset", "/users?limit=10"],
    ["a negative offset", "/users?offset=-5"],
    ["an offset that is not a whole number", "/users?offset=2.5"],
    ["an offset that is not a number", "/users?offset=abc"],
  ])("gives up on %s", (_name, url) => {
    expect(windowOfUrl(url, 25)).toBeNull();
  });

  test("a limit that is missing, zero or not a number falls back to the one asked for", () => {
    expect(windowOfUrl("/u?offset=5&limit=0", 25)).toEqual({ offset: 5, limit: 25 });
    expect(windowOfUrl("/u?offset=5&limit=x", 10)).toEqual({ offset: 5, limit: 10 });
  });
});

describe("pageFromHeaders", () => {
  const items = ["a", "b"];

  test("a middle page: the total, the next page from Link and the one before", () => {
    const headers = new Headers({ "X-Total-Count": "7", Link: '</api/v1/admin/users?limit=2&offset=4>; rel="next"' });
    expect(pageFromHeaders(items, headers, { offset: 2, limit: 2 })).toEqual({
      items,
      total: 7,
      offset: 2,
      limit: 2,
      next: { offset: 4, limit: 2 },
      previous: { offset: 0, limit: 2 },
    });
  });

  test("the first page has nothing before it; the last has nothing after it", () => {
    const first = pageFromHeaders(items, new Headers({ "X-Total-Count": "3", Link: '</u?limit=2&offset=2>; rel="next"' }), { offset: 0, limit: 2 });
    expect(first.previous).toBeNull();
    expect(first.next).toEqual({ offset: 2, limit: 2 });
    const last = pageFromHeaders(["c"], new Headers({ "X-Total-Count": "3" }), { offset: 2, limit: 2 });
    expect(last.next).toBeNull();
    expect(last.previous).toEqual({ offset: 0, limit: 2 });
  });

  test("stepping back never goes below the first item", () => {
    expect(pageFromHeaders(items, new Headers(), { offset: 3, limit: 10 }).previous).toEqual({ offset: 0, limit: 10 });
  });

  test("without X-Total-Count the total is unknown, not zero", () => {
    expect(pageFromHeaders(items, new Headers(), { offset: 0, limit: 2 }).total).toBeNull();
    expect(pageFromHeaders(items, new Headers({ "X-Total-Count": "many" }), { offset: 0, limit: 2 }).total).toBeNull();
  });
});
