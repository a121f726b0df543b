// Which texts count as credentials when an error is made of a peer's words, and which do not.
import { describe, expect, it } from "vitest";
import { redactCredentials, Secrets } from "../../../src/client/auth/redact.js";

describe("redactCredentials", () => {
  it.each([
    ["you sent Basic YXBwOnNlY3JldA== to me", "you sent Basic [redacted] to me"],
    ["header: Bearer abc.def-123_XYZ", "header: Bearer [redacted]"],
    ["DPoP eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "DPoP [redacted]"],
    ["assertion eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln rejected", "assertion [redacted] rejected"],
    ["body grant_type=x&client_secret=hunter2&scope=a", "body grant_type=x&client_secret=[redacted]&scope=a"],
    ['{"refresh_token": "rt-1", "n": 1}', '{"refresh_token": "[redacted]", "n": 1}'],
  ])("hides %j", (text, expected) => {
    expect(redactCredentials(text)).toBe(expected);
  });

  it.each([
    "use Bearer or DPoP",
    "client_secret_basic authentication is not supported",
    "Basic authentication failed",
    'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
    "the assertion has expired",
  ])("leaves prose alone: %j", (text) => {
    expect(redactCredentials(text)).toBe(text);
  });
});

describe("Secrets", () => {
  it("hides a configured secret as is, encoded, and in a client_secret_basic credential", () => {
    const secrets = new Secrets();
    secrets.configureClient("my app", "s3cret/with+signs");
    const basic = Buffer.from("my+app:s3cret%2Fwith%2Bsigns").toString("base64");
    const text = `a s3cret/with+signs b s3cret%2Fwith%2Bsigns c ${basic} d`;
    expect(secrets.redact(text)).toBe("a [redacted] b [redacted] c [redacted] d");
  });

  it("remembers the latest values seen, a bounded number of them", () => {
    const secrets = new Secrets();
    secrets.configure("configured-secret");
    for (let i = 0; i < 100; i++) secrets.add(`token-number-${String(i).padStart(3, "0")}`);
    expect(secrets.redact("token-number-099 configured-secret")).toBe("[redacted] [redacted]");
    expect(secrets.redact("token-number-000")).toBe("token-number-000");
  });

  it("leaves values too short to be secrets alone", () => {
    const secrets = new Secrets();
    secrets.configure("abc");
    expect(secrets.redact("abc def")).toBe("abc def");
  });
});
