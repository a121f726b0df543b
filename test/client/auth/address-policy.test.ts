// The address classes and the rule that judges them, for every IP notation a peer or a DNS
// answer can produce: the IPv4 forms tucked inside IPv6 ones are judged as that IPv4 address.
import { describe, expect, it } from "vitest";
import { checkPeerUrl } from "../../../src/client/auth/url-policy.js";

const publicServer = new URL("https://mcp.example.com/mcp");
const loopbackServer = new URL("http://127.0.0.1:3000/mcp");
const privateServer = new URL("http://10.1.2.3:3000/mcp");

describe("addresses a server on a public name may not send the client to", () => {
  it.each([
    ["0.0.0.0", "reserved"],
    ["0.1.2.3", "reserved"],
    ["100.64.0.1", "private"],
    ["100.100.100.200", "metadata"],
    ["172.31.255.255", "private"],
    ["198.18.0.1", "private"],
    ["192.0.0.192", "reserved"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["[::]", "reserved"],
    ["[::1]", "loopback"],
    ["[::127.0.0.1]", "reserved"],
    ["[::ffff:169.254.169.254]", "link-local"],
    ["[::ffff:a00:5]", "private"],
    ["[::ffff:0:7f00:1]", "loopback"],
    ["[64:ff9b::a9fe:a9fe]", "link-local"],
    ["[64:ff9b::10.0.0.5]", "private"],
    ["[64:ff9b::7f00:1]", "loopback"],
    ["[64:ff9b:1::a00:5]", "private"],
    ["[2002:a9fe:a9fe::1]", "link-local"],
    ["[2002:c0a8:101::1]", "private"],
    ["[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "reserved"],
    ["[2001:db8::1]", "reserved"],
    ["[fc00::1]", "private"],
    ["[fd12:3456:789a::1]", "private"],
    ["[fd00:ec2::254]", "metadata"],
    ["[fe80::1]", "link-local"],
    ["[febf:ffff::1]", "link-local"],
    ["[fec0::1]", "private"],
    ["[ff02::1]", "reserved"],
    ["[100::1]", "reserved"],
  ])("refuses https://%s/", (host, why) => {
    expect(() => checkPeerUrl(`https://${host}/`, publicServer, "authorization server")).toThrow(why);
  });

  it.each([
    "8.8.8.8",
    "[2606:4700:4700::1111]",
    "[64:ff9b::808:808]",
    "[2002:808:808::1]",
    "[::ffff:8.8.8.8]",
  ])("takes the public https://%s/", (host) => {
    expect(checkPeerUrl(`https://${host}/`, publicServer, "authorization server").protocol).toBe("https:");
  });
});

describe("allowPrivateNetworks and the server's own address", () => {
  it("lets a server on a public name use private addresses with allowPrivateNetworks, and nothing more", () => {
    const policy = { server: publicServer, allowPrivateNetworks: true };
    expect(checkPeerUrl("https://10.0.0.5/", policy, "x").hostname).toBe("10.0.0.5");
    expect(checkPeerUrl("https://[fd12::5]/", policy, "x").hostname).toBe("[fd12::5]");
    expect(() => checkPeerUrl("https://127.0.0.1/", policy, "x")).toThrow("loopback");
    expect(() => checkPeerUrl("https://169.254.169.254/", policy, "x")).toThrow("link-local");
    expect(() => checkPeerUrl("https://[fd00:ec2::254]/", policy, "x")).toThrow("metadata");
    expect(() => checkPeerUrl("https://10.0.0.5/", { server: publicServer }, "x")).toThrow(
      "allowPrivateNetworks",
    );
  });

  it("keeps this machine for servers on this machine: a server on the private network may not send the client to its own loopback", () => {
    expect(checkPeerUrl("http://10.0.0.9/", privateServer, "x").hostname).toBe("10.0.0.9");
    expect(() => checkPeerUrl("http://127.0.0.1:8080/", privateServer, "x")).toThrow("loopback");
    expect(checkPeerUrl("http://[::1]:8080/", loopbackServer, "x").port).toBe("8080");
    expect(checkPeerUrl("http://172.17.0.2:8080/", loopbackServer, "x").port).toBe("8080");
  });
});
