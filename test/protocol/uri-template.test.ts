import { describe, expect, it } from "vitest";
import { UriTemplate, type UriTemplateValue } from "../../src/util/uri-template.js";

// The variables of RFC 6570 section 3.2.
const rfc: Record<string, UriTemplateValue> = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  keys: { semi: ";", dot: ".", comma: "," },
  v: "6",
  x: 1024,
  y: 768,
  empty: "",
  empty_keys: {},
  undef: undefined,
};

// [template, expansion], from RFC 6570 sections 3.2.1 to 3.2.9.
const rfcExamples: [string, string][] = [
  // 3.2.1 variable expansion
  ["{count}", "one,two,three"],
  ["{count*}", "one,two,three"],
  ["{/count}", "/one,two,three"],
  ["{/count*}", "/one/two/three"],
  ["{;count}", ";count=one,two,three"],
  ["{;count*}", ";count=one;count=two;count=three"],
  ["{?count}", "?count=one,two,three"],
  ["{?count*}", "?count=one&count=two&count=three"],
  ["{&count*}", "&count=one&count=two&count=three"],
  // 3.2.2 simple string expansion
  ["{var}", "value"],
  ["{hello}", "Hello%20World%21"],
  ["{half}", "50%25"],
  ["O{empty}X", "OX"],
  ["O{undef}X", "OX"],
  ["{x,y}", "1024,768"],
  ["{x,hello,y}", "1024,Hello%20World%21,768"],
  ["?{x,empty}", "?1024,"],
  ["?{x,undef}", "?1024"],
  ["?{undef,y}", "?768"],
  ["{var:3}", "val"],
  ["{var:30}", "value"],
  ["{list}", "red,green,blue"],
  ["{list*}", "red,green,blue"],
  ["{keys}", "semi,%3B,dot,.,comma,%2C"],
  ["{keys*}", "semi=%3B,dot=.,comma=%2C"],
  // 3.2.3 reserved expansion
  ["{+var}", "value"],
  ["{+hello}", "Hello%20World!"],
  ["{+half}", "50%25"],
  ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
  ["{+base}index", "http://example.com/home/index"],
  ["O{+empty}X", "OX"],
  ["O{+undef}X", "OX"],
  ["{+path}/here", "/foo/bar/here"],
  ["here?ref={+path}", "here?ref=/foo/bar"],
  ["{+x,hello,y}", "1024,Hello%20World!,768"],
  ["{+path,x}/here", "/foo/bar,1024/here"],
  ["{+path:6}/here", "/foo/b/here"],
  ["{+list}", "red,green,blue"],
  ["{+list*}", "red,green,blue"],
  ["{+keys}", "semi,;,dot,.,comma,,"],
  ["{+keys*}", "semi=;,dot=.,comma=,"],
  // 3.2.4 fragment expansion
  ["{#var}", "#value"],
  ["{#hello}", "#Hello%20World!"],
  ["{#half}", "#50%25"],
  ["foo{#empty}", "foo#"],
  ["foo{#undef}", "foo"],
  ["{#x,hello,y}", "#1024,Hello%20World!,768"],
  ["{#path,x}/here", "#/foo/bar,1024/here"],
  ["{#path:6}/here", "#/foo/b/here"],
  ["{#list}", "#red,green,blue"],
  ["{#list*}", "#red,green,blue"],
  ["{#keys}", "#semi,;,dot,.,comma,,"],
  ["{#keys*}", "#semi=;,dot=.,comma=,"],
  // 3.2.5 label expansion
  ["{.who}", ".fred"],
  ["{.who,who}", ".fred.fred"],
  ["{.half,who}", ".50%25.fred"],
  ["www{.dom*}", "www.example.com"],
  ["X{.var}", "X.value"],
  ["X{.empty}", "X."],
  ["X{.undef}", "X"],
  ["X{.var:3}", "X.val"],
  ["X{.list}", "X.red,green,blue"],
  ["X{.list*}", "X.red.green.blue"],
  ["X{.keys}", "X.semi,%3B,dot,.,comma,%2C"],
  ["X{.keys*}", "X.semi=%3B.dot=..comma=%2C"],
  ["X{.empty_keys}", "X"],
  ["X{.empty_keys*}", "X"],
  // 3.2.6 path segment expansion
  ["{/who}", "/fred"],
  ["{/who,who}", "/fred/fred"],
  ["{/half,who}", "/50%25/fred"],
  ["{/who,dub}", "/fred/me%2Ftoo"],
  ["{/var}", "/value"],
  ["{/var,empty}", "/value/"],
  ["{/var,undef}", "/value"],
  ["{/var,x}/here", "/value/1024/here"],
  ["{/var:1,var}", "/v/value"],
  ["{/list}", "/red,green,blue"],
  ["{/list*}", "/red/green/blue"],
  ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
  ["{/keys}", "/semi,%3B,dot,.,comma,%2C"],
  ["{/keys*}", "/semi=%3B/dot=./comma=%2C"],
  // 3.2.7 path-style parameter expansion
  ["{;who}", ";who=fred"],
  ["{;half}", ";half=50%25"],
  ["{;empty}", ";empty"],
  ["{;v,empty,who}", ";v=6;empty;who=fred"],
  ["{;v,bar,who}", ";v=6;who=fred"],
  ["{;x,y}", ";x=1024;y=768"],
  ["{;x,y,empty}", ";x=1024;y=768;empty"],
  ["{;x,y,undef}", ";x=1024;y=768"],
  ["{;hello:5}", ";hello=Hello"],
  ["{;list}", ";list=red,green,blue"],
  ["{;list*}", ";list=red;list=green;list=blue"],
  ["{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"],
  ["{;keys*}", ";semi=%3B;dot=.;comma=%2C"],
  // 3.2.8 form-style query expansion
  ["{?who}", "?who=fred"],
  ["{?half}", "?half=50%25"],
  ["{?x,y}", "?x=1024&y=768"],
  ["{?x,y,empty}", "?x=1024&y=768&empty="],
  ["{?x,y,undef}", "?x=1024&y=768"],
  ["{?var:3}", "?var=val"],
  ["{?list}", "?list=red,green,blue"],
  ["{?list*}", "?list=red&list=green&list=blue"],
  ["{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"],
  ["{?keys*}", "?semi=%3B&dot=.&comma=%2C"],
  // 3.2.9 form-style query continuation
  ["{&who}", "&who=fred"],
  ["{&half}", "&half=50%25"],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ["{&x,y,empty}", "&x=1024&y=768&empty="],
  ["{&var:3}", "&var=val"],
  ["{&list}", "&list=red,green,blue"],
  ["{&list*}", "&list=red&list=green&list=blue"],
  ["{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"],
  ["{&keys*}", "&semi=%3B&dot=.&comma=%2C"],
];

describe("UriTemplate.expand", () => {
  for (const [template, expected] of rfcExamples) {
    it(`RFC 6570: ${template} -> ${expected}`, () => {
      expect(new UriTemplate(template).expand(rfc)).toBe(expected);
    });
  }

  it("encodes per operator and keeps pct-encoded triplets only in reserved expansion", () => {
    const t = new UriTemplate("{a}~{+a}~{#a}");
    expect(t.expand({ a: "50%25 é/?" })).toBe("50%2525%20%C3%A9%2F%3F~50%25%20%C3%A9/?~#50%25%20%C3%A9/?");
    expect(new UriTemplate("{+a}").expand({ a: "100%" })).toBe("100%25");
    expect(new UriTemplate("{a}").expand({ a: "!'()*" })).toBe("%21%27%28%29%2A");
  });

  it("counts prefix characters as code points, and stringifies numbers and booleans", () => {
    expect(new UriTemplate("{a:2}").expand({ a: "😀é!" })).toBe("%F0%9F%98%80%C3%A9");
    expect(new UriTemplate("{?n,b}").expand({ n: 0, b: false })).toBe("?n=0&b=false");
  });

  it("encodes literals that are not allowed in a URI", () => {
    expect(new UriTemplate("a b/{x}").expand({ x: "1" })).toBe("a%20b/1");
  });

  it("treats missing variables as undefined", () => {
    expect(new UriTemplate("users://{id}/profile{?tab}").expand({})).toBe("users:///profile");
  });
});

describe("UriTemplate.match", () => {
  it("matches MCP-style templates", () => {
    expect(new UriTemplate("users://{id}/profile").match("users://42/profile")).toEqual({ id: "42" });
    expect(new UriTemplate("file:///{+path}").match("file:///a/b/c.txt")).toEqual({ path: "a/b/c.txt" });
    expect(new UriTemplate("file:///{path}").match("file:///notes.md")).toEqual({ path: "notes.md" });
  });

  it("does not let a simple variable cross '/'", () => {
    const t = new UriTemplate("users://{id}/profile");
    expect(t.match("users://4/2/profile")).toBeUndefined();
    expect(new UriTemplate("file:///{path}").match("file:///a/b")).toBeUndefined();
    expect(new UriTemplate("{/a}").match("/x/y")).toBeUndefined();
  });

  it("percent-decodes values", () => {
    expect(new UriTemplate("users://{id}/profile").match("users://John%20Doe/profile")).toEqual({
      id: "John Doe",
    });
    expect(new UriTemplate("file:///{+path}").match("file:///my%20docs/a%2Fb.txt")).toEqual({
      path: "my docs/a/b.txt",
    });
  });

  it("rejects URIs that do not fit the literals", () => {
    const t = new UriTemplate("users://{id}/profile");
    expect(t.match("user://42/profile")).toBeUndefined();
    expect(t.match("users://42/profile/x")).toBeUndefined();
    expect(t.match("users://42/settings")).toBeUndefined();
    expect(new UriTemplate("a://fixed").match("a://fixed")).toEqual({});
    expect(new UriTemplate("a://fixed").match("a://fixed2")).toBeUndefined();
  });

  it("rejects malformed percent-encoding", () => {
    expect(new UriTemplate("x://{id}").match("x://%E0%A4%A")).toBeUndefined();
    expect(new UriTemplate("x://{id}").match("x://%zz")).toBeUndefined();
  });

  it("matches query parameters by name, in any order, ignoring unknown ones", () => {
    const t = new UriTemplate("search://q{?query,limit}");
    expect(t.match("search://q?query=mcp&limit=10")).toEqual({ query: "mcp", limit: "10" });
    expect(t.match("search://q?limit=10&extra=1&query=hello%20world")).toEqual({
      query: "hello world",
      limit: "10",
    });
    expect(t.match("search://q?query=mcp")).toEqual({ query: "mcp" });
    expect(t.match("search://q")).toEqual({});
    expect(t.match("search://q?query=")).toEqual({ query: "" });
    expect(t.match("search://qx")).toBeUndefined();
    expect(t.match("search://q?query=a#frag")).toBeUndefined();
  });

  it("returns lists as arrays", () => {
    expect(new UriTemplate("c://{list}").match("c://red,green,blue")).toEqual({
      list: ["red", "green", "blue"],
    });
    expect(new UriTemplate("c://x{/list*}").match("c://x/red/green/blue")).toEqual({
      list: ["red", "green", "blue"],
    });
    expect(new UriTemplate("c://x{?tag*}").match("c://x?tag=a&tag=b")).toEqual({ tag: ["a", "b"] });
    expect(new UriTemplate("c://x{?tag}").match("c://x?tag=a,b")).toEqual({ tag: ["a", "b"] });
    expect(new UriTemplate("c://x{;list*}").match("c://x;list=a;list=b")).toEqual({ list: ["a", "b"] });
  });

  it("keeps commas in reserved values unless they separate variables", () => {
    expect(new UriTemplate("file:///{+path}").match("file:///a,b.txt")).toEqual({ path: "a,b.txt" });
    expect(new UriTemplate("{+x,y}").match("1,2")).toEqual({ x: "1", y: "2" });
  });

  it("reads the RFC's multi-variable expansions back", () => {
    const cases: [string, string, Record<string, string | string[]>][] = [
      ["{x,y}", "1024,768", { x: "1024", y: "768" }],
      ["{/var,x}/here", "/value/1024/here", { var: "value", x: "1024" }],
      ["{/list*,path:4}", "/red/green/blue/%2Ffoo", { list: ["red", "green", "blue"], path: "/foo" }],
      ["{#path,x}/here", "#/foo/bar,1024/here", { path: "/foo/bar", x: "1024" }],
      ["{;v,empty,who}", ";v=6;empty;who=fred", { v: "6", empty: "", who: "fred" }],
      ["www{.dom*}", "www.example.com", { dom: ["example", "com"] }],
      ["?fixed=yes{&x}", "?fixed=yes&x=1024", { x: "1024" }],
    ];
    for (const [template, uri, expected] of cases)
      expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });

  it("ends a middle expression at the first occurrence of the following literal", () => {
    const t = new UriTemplate("logs://{name}.{format}.gz");
    expect(t.match("logs://app.tar.gz")).toEqual({ name: "app", format: "tar" });
    expect(t.match("logs://app.2024.tar.gz")).toEqual({ name: "app", format: "2024.tar" });
    expect(new UriTemplate("https://{tenant}.example.com/{id}").match("https://acme.example.com/7")).toEqual({
      tenant: "acme",
      id: "7",
    });
  });

  it("splits adjacent expressions at the operator character", () => {
    expect(new UriTemplate("x://{a}{/b}").match("x://one/two")).toEqual({ a: "one", b: "two" });
    expect(new UriTemplate("x://{a}{/b}").match("x://one")).toEqual({ a: "one" });
    expect(new UriTemplate("x://{id}{?v}").match("x://7?v=2")).toEqual({ id: "7", v: "2" });
    expect(new UriTemplate("x://{id}{#f}").match("x://7#top")).toEqual({ id: "7", f: "top" });
    expect(new UriTemplate("x:{/p*}{?q}").match("x:/a/b?q=1")).toEqual({ p: ["a", "b"], q: "1" });
  });

  it("matches {?a}{&b} as one query", () => {
    const t = new UriTemplate("x://y{?a}{&b}");
    expect(t.match("x://y?b=2&a=1")).toEqual({ a: "1", b: "2" });
    expect(t.match("x://y?a=1")).toEqual({ a: "1" });
    // RFC 6570 expands it to `x://y&b=2` when `a` is undefined; only a `?`-led query is matched.
    expect(t.match("x://y&b=2")).toBeUndefined();
  });

  it("requires a repeated variable to match the same value", () => {
    const t = new UriTemplate("x://{a}/{a}");
    expect(t.match("x://1/1")).toEqual({ a: "1" });
    expect(t.match("x://1/2")).toBeUndefined();
  });

  it("is safe with a variable called __proto__", () => {
    const m = new UriTemplate("x://{__proto__}").match("x://1");
    expect(Object.keys(m!)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });

  it("round-trips expand -> match", () => {
    const cases: [string, Record<string, string | string[]>][] = [
      ["users://{id}/profile", { id: "42" }],
      ["users://{id}/profile", { id: "a b/c?d#e,f%" }],
      ["file:///{+path}", { path: "a/b/c d.txt" }],
      ["search://q{?query,limit}", { query: "hello world & more=yes", limit: "10" }],
      ["repo://{owner}/{repo}/issues{/number}{?state,labels}", { owner: "o", repo: "r", number: "7" }],
      ["repo://{owner}/{repo}/issues{/number}{?state,labels}", { owner: "o", repo: "r", labels: ["a", "b"] }],
      ["logs://{name}.{format}.gz", { name: "app", format: "tar.x" }],
      ["x:{/segments*}{?q}", { segments: ["a", "b c", "d"], q: "z" }],
      ["tools://{name}{#section}", { name: "grep", section: "usage/flags" }],
      ["www{.dom*}", { dom: ["example", "com"] }],
      ["map://{x,y}", { x: "1", y: "2" }],
      ["doc://d{;lang,v}", { lang: "en", v: "" }],
      ["api://{host}{/path*}{?q}{&page}", { host: "h", path: ["p", "q"], q: "s", page: "3" }],
      ["emoji://{e}", { e: "😀é" }],
    ];
    for (const [template, values] of cases) {
      const t = new UriTemplate(template);
      expect(t.match(t.expand(values)), `${template} ${JSON.stringify(values)}`).toEqual(values);
    }
  });

  it("finishes in linear time on 100,000-character adversarial URIs", () => {
    const n = 100_000;
    const a = "a".repeat(n);
    expect(new UriTemplate("users://{id}/profile").match(`users://${a}/profilx`)).toBeUndefined();
    expect(new UriTemplate("users://{id}/profile").match(`users://${a}/profile`)).toEqual({ id: a });
    expect(new UriTemplate("{a}.{b}.json").match("x.".repeat(n / 2))).toBeUndefined();
    expect(new UriTemplate("{a}.{b}.json").match(`${"x.".repeat(n / 2)}json`)?.a).toBe("x");
    const dashes = new UriTemplate("{a}-{b}-{c}-{d}").match(`${"-".repeat(n)}x`);
    expect(dashes).toMatchObject({ a: "", b: "", c: "" });
    expect(dashes?.d).toHaveLength(n - 2);
    expect(new UriTemplate("file:///{+path}/raw/{rev}").match(`file:///${"/raw".repeat(n / 4)}/`)).toBe(
      undefined,
    );
    expect(new UriTemplate("file:///{+path}").match(`file:///${"/%2".repeat(n / 3)}`)).toBeUndefined();
    expect(new UriTemplate("x:{/a*}{?q}").match(`x:${"/a".repeat(n / 2)}?q=1`)?.a).toHaveLength(n / 2);
    expect(new UriTemplate("x:{/a,b}").match(`x:${"/".repeat(n)}`)).toBeUndefined();
    expect(new UriTemplate("s://q{?x,y}").match(`s://q?${"x=1&".repeat(n / 4)}`)?.x).toHaveLength(n / 4);
    expect(new UriTemplate("x://{a}{/b}").match(`x://${a}/`)).toEqual({ a, b: "" });
    expect(new UriTemplate("x://{a},{b},{c}").match(`x://${",".repeat(n)}`)?.c).toHaveLength(n - 1);
    expect(new UriTemplate("{#a}/x").match(`#${"/".repeat(n)}`)).toBeUndefined();
  });
});

describe("UriTemplate: a reserved path followed by a query or fragment", () => {
  const file = new UriTemplate("file:///{+path}{?rev,mode}");

  it("ends the path at the first ? (RFC 3986: it starts the query)", () => {
    expect(file.match("file:///src/a b.ts?rev=3&mode=raw")).toEqual({
      path: "src/a b.ts",
      rev: "3",
      mode: "raw",
    });
    expect(file.match("file:///src/a%20b.ts")).toEqual({ path: "src/a b.ts" });
    expect(file.match("file:///a/b?rev=1&other=2")).toEqual({ path: "a/b", rev: "1" });
  });

  it("matches what it expands, and ends at # before a fragment expression", () => {
    const uri = file.expand({ path: "dir/x,y.txt", rev: "7" });
    expect(uri).toBe("file:///dir/x,y.txt?rev=7");
    expect(file.match(uri)).toEqual({ path: "dir/x,y.txt", rev: "7" });
    const fragment = new UriTemplate("x://{+path}{#frag}");
    expect(fragment.match("x://a/b#c/d")).toEqual({ path: "a/b", frag: "c/d" });
    expect(fragment.match("x://a/b?q#c")).toBeUndefined();
  });

  it("still takes a ? into a reserved expansion that ends the template", () => {
    expect(new UriTemplate("file:///{+path}").match("file:///a?b")).toEqual({ path: "a?b" });
  });
});

describe("UriTemplate constructor", () => {
  it("exposes the template and its variable names", () => {
    const t = new UriTemplate("repo://{owner}/{repo}{/path*}{?ref,owner}");
    expect(t.template).toBe("repo://{owner}/{repo}{/path*}{?ref,owner}");
    expect(String(t)).toBe(t.template);
    expect(t.variableNames).toEqual(["owner", "repo", "path", "ref"]);
  });

  it.each([
    ["users://{id", 'unclosed "{" at position 8'],
    ["a{b{c}}", 'unclosed "{" at position 1'],
    ["a}b", 'unmatched "}" at position 1'],
    ["x{a}}", 'unmatched "}" at position 4'],
    ["x{}", "empty expression at position 1"],
    ["{+}", "expression {+} has no variables"],
    ["{a b}", 'invalid variable name "a b" in {a b}'],
    ["{a,}", 'invalid variable name "" in {a,}'],
    ["{a.}", 'invalid variable name "a." in {a.}'],
    ["{$a}", 'invalid variable name "$a" in {$a}'],
    ["{a-b}", 'invalid variable name "a-b" in {a-b}'],
    ["{=a}", 'operator "=" in {=a} is reserved, not supported'],
    ["{|a}", 'operator "|" in {|a} is reserved, not supported'],
    ["{a:0}", 'invalid prefix modifier ":0" on "a" in {a:0} (expected :1 to :9999)'],
    ["{a:10000}", 'invalid prefix modifier ":10000" on "a" in {a:10000}'],
    ["{a:x}", 'invalid prefix modifier ":x" on "a"'],
    ["{a:3*}", 'invalid prefix modifier ":3*" on "a"'],
    ["{a*3}", 'invalid variable name "a*3"'],
  ])("rejects %s", (template, message) => {
    expect(() => new UriTemplate(template)).toThrow(TypeError);
    expect(() => new UriTemplate(template)).toThrow(`Invalid URI template "${template}": ${message}`);
  });

  it.each([
    ["{a}{b}"],
    ["{a}{+b}"],
    ["x://{+path}{/b}"],
    ["{a}{.b}"],
    ["{/a}{/b}"],
    ["x://h?a={+v}{&b}"],
    ["x://h/{?a}{+v}{#f}"],
    ["{#a}{/b}"],
    ["{?a}{?b}"],
  ])("rejects the ambiguous %s", (template) => {
    expect(() => new UriTemplate(template)).toThrow(/ambiguous: \{.*\} is directly followed by \{/);
  });

  it("accepts RFC-valid names and adjacent expressions with an operator separator", () => {
    for (const template of [
      "{a.b_c%20}",
      "{a}{/b}",
      "{a}{?b}",
      "{a}{#b}",
      "{/p*}{?q}",
      "{?a}{&b}{&c}",
      "{;a}{?b}",
      "file:///{+path}{?rev}",
      "x://{+path}{#frag}",
    ]) {
      expect(() => new UriTemplate(template)).not.toThrow();
    }
  });
});
