// What an authorization server says in its errors is peer text: a hostile one answers with escape
// sequences, 100 KB of text and the client's own credentials echoed back. The error the client
// fails with is capped, inert, and carries none of its credentials, nor does anything it keeps.
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  isOAuthError,
  type OAuthErrorData,
  type OAuthOptions,
  OAuthSession,
} from "../../../src/client/auth/index.js";
import { McpClient } from "../../../src/client/index.js";
import {
  type Answer,
  protectedMcpServer,
  type RecordedRequest,
  recordingAuthorizationServer,
} from "../../helpers/recording-oauth.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const SECRET = "s3cret-0f-the-client-0123456789abcdef";
const ASSERTION = "static-assertion-kept-by-the-workload-0123456789";
const PADDING = "A".repeat(100_000);
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** An error answer that paints the terminal, echoes what the client sent, and goes on for 100 KB. */
function hostileAnswer(request: RecordedRequest, echoed: string): Answer {
  return {
    status: 400,
    body: {
      error: `invalid_client\u001b]0;owned\u0007\u001b[2J`,
      error_description:
        `\u001b[2J\u001b[31mYou sent ${request.authorization ?? "nothing"} with ${request.body}; ` +
        // The secret where a 1 KiB cut would fall, so that cutting before redacting leaves a part of it.
        `${"x".repeat(1000)}${echoed}\u202e ${PADDING} ${echoed}`,
      error_uri: `https://attacker.example/\u001b[8m${PADDING}`,
    },
  };
}

async function setup(behaviour: {
  token?: (request: RecordedRequest) => Answer | undefined;
  register?: (request: RecordedRequest) => Answer | undefined;
}) {
  const as = await recordingAuthorizationServer({ name: "hostile", ...behaviour });
  cleanup.push(() => as.close());
  const server = await protectedMcpServer([as.issuer]);
  cleanup.push(() => server.close());
  return { as, server };
}

/** Connecting fails with an `OAuthError`; that error. */
async function failure(url: string, auth: OAuthOptions): Promise<Error & { data: OAuthErrorData }> {
  const error = await McpClient.connect({ url, auth, handshakeTimeout: 20_000 }).then(
    async (client) => {
      await client.close();
      throw new Error("connected");
    },
    (e: Error) => e,
  );
  expect(isOAuthError(error), String(error)).toBe(true);
  return error as Error & { data: OAuthErrorData };
}

/** The error, its data and its causes, as a log would show them. */
const everything = (error: Error) =>
  `${error.message}\n${JSON.stringify(error)}\n${inspect(error, { depth: 20 })}`;

function expectInert(error: Error & { data: OAuthErrorData }, secrets: string[]) {
  expect(error.message.length).toBeLessThan(4200);
  expect(error.message).not.toMatch(CONTROL);
  expect(error.data.description!.length).toBeLessThan(1100);
  expect(error.data.description).not.toMatch(CONTROL);
  expect(error.data.oauthError).not.toMatch(CONTROL);
  expect(error.message).toContain("invalid_client");
  if (secrets.length > 0) expect(error.message).toContain("[redacted]");
  const shown = everything(error);
  expect(shown.length).toBeLessThan(40_000);
  expect(shown).not.toContain("\u001b");
  expect(shown).not.toContain(PADDING.slice(0, 5000));
  for (const secret of secrets) {
    // Nor a part of one long enough to matter.
    expect(shown).not.toContain(secret.slice(0, 12));
    expect(shown).not.toContain(secret.slice(-12));
  }
}

describe("authorization server errors", () => {
  it("keep a token endpoint's error capped and inert, without the client secret it echoes", async () => {
    const { as, server } = await setup({ token: (request) => hostileAnswer(request, SECRET) });
    const error = await failure(server.url, {
      clientId: "app",
      clientSecret: SECRET,
      issuer: as.issuer,
      grant: { type: "client_credentials" },
    });
    const basic = Buffer.from(`app:${SECRET}`).toString("base64");
    expect(as.credentialed()[0]!.authorization).toBe(`Basic ${basic}`);
    expectInert(error, [SECRET, basic]);
  });

  it("keep the client's assertion out of the error the token endpoint answers with", async () => {
    const { as, server } = await setup({ token: (request) => hostileAnswer(request, ASSERTION) });
    const error = await failure(server.url, {
      clientId: "app",
      issuer: as.issuer,
      grant: { type: "jwt_bearer", assertion: ASSERTION },
    });
    expectInert(error, [ASSERTION]);
  });

  it("keep an assertion a function made out of the error", async () => {
    const made = "assertion-made-just-now-for-the-audience-0123456789";
    const { as, server } = await setup({ token: (request) => hostileAnswer(request, made) });
    const error = await failure(server.url, {
      clientId: "app",
      grant: { type: "jwt_bearer", assertion: () => made },
    });
    expect(as.credentialed()).toHaveLength(1);
    expectInert(error, [made]);
  });

  it("keep a secret the client registered out of the error that echoes it", async () => {
    const registered = "hostile-registered-secret";
    const { as, server } = await setup({
      // The first token request works; the next is refused, echoing what it got.
      token: (request) => (as.credentialed().length <= 2 ? undefined : hostileAnswer(request, registered)),
    });
    const session = new OAuthSession(server.url, { grant: { type: "client_credentials" } });
    await session.authorize();
    const error = await session.authorize().then(
      () => new Error("authorized"),
      (e: Error) => e,
    );
    expect(isOAuthError(error), String(error)).toBe(true);
    expect(as.credentialed().at(-1)!.authorization).toMatch(/^Basic /);
    expectInert(error as Error & { data: OAuthErrorData }, [registered]);
  });

  it("keep a registration endpoint's error capped and inert", async () => {
    const { server } = await setup({ register: (request) => hostileAnswer(request, "nothing secret") });
    const error = await failure(server.url, { grant: { type: "client_credentials" } });
    expectInert(error, []);
  });

  it("keep an authorization response's error capped and inert", async () => {
    const { as, server } = await setup({});
    const error = await failure(server.url, {
      clientId: "app",
      clientSecret: SECRET,
      issuer: as.issuer,
      // The user is sent back with an error the authorization server wrote.
      onAuthorizationUrl: (url, { redirectUri }) => {
        const back = new URL(redirectUri);
        back.searchParams.set("state", url.searchParams.get("state")!);
        back.searchParams.set("error", "access_denied\u001b[2J");
        back.searchParams.set(
          "error_description",
          `\u001b[31mClient_secret=${SECRET} Basic ${Buffer.from(`app:${SECRET}`).toString("base64")} ${PADDING}`,
        );
        return back;
      },
    });
    expect(error.message).toContain("access_denied");
    expect(error.message.length).toBeLessThan(4200);
    expect(error.message).not.toMatch(CONTROL);
    expect(everything(error)).not.toContain("\u001b");
    expect(everything(error)).not.toContain(SECRET.slice(0, 12));
    expect(everything(error)).not.toContain(PADDING.slice(0, 5000));
  });
});
