import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isGlobalUnicast, parseIpAddress } from "#src/core/ip-address.ts";
import { alertInWords } from "#src/server/services/trackers/words.ts";
import { slackText } from "#src/server/services/trackers/slack.ts";
import { checkWebhookUrl, postPinned, type Send, webhookTarget } from "#src/server/services/trackers/webhook-url.ts";

/*
 * Webhook targets are compared as addresses (bytes), not as text: every spelling of an internal
 * address is refused, IPv6 forms carrying an IPv4 address are judged by that address, and only
 * global unicast passes. The request goes to the address that was checked, with the name as Host
 * and TLS server name. Slack text shows what users wrote without acting on it.
 */

const open = { allowPrivate: false, httpsOnly: false };

/** The names a probe pointed at loopback in /etc/hosts, and the usual loopback names; nothing else resolves. */
async function hostsFile(host: string): Promise<string[]> {
  const answers: Record<string, string[]> = {
    localhost: ["::1", "127.0.0.1"],
    "localhost.": ["127.0.0.1"],
    "ip6-localhost": ["::1"],
    "mapped-dotted.test": ["::ffff:127.0.0.1"],
    "mapped-hex.test": ["::ffff:7f00:1"],
    "loopback.test": ["127.0.0.1"],
    "metadata.test": ["93.184.216.34", "169.254.169.254"],
  };
  const found = answers[host.toLowerCase()];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found;
}

async function refusal(url: string): Promise<string | null> {
  try {
    await checkWebhookUrl(url, open, hostsFile);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe("webhook addresses, compared as bytes", () => {
  test("every spelling the probe got past the check is refused", async () => {
    for (const host of [
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "[0:0:0:0:0:ffff:127.0.0.1]",
      "[0:0:0:0:0:ffff:7f00:1]",
      "[::ffff:0.0.0.0]",
      "[::ffff:169.254.169.254]",
      "[::ffff:a9fe:a9fe]",
      "[::ffff:10.0.0.1]",
      "[::ffff:172.16.0.1]",
      "[::ffff:192.168.1.1]",
      "[::ffff:100.64.0.1]",
      "[::127.0.0.1]",
      "[::ffff:0:7f00:1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::]",
      "[fec0::1]",
      // With uppercase hex and another zero run.
      "[::FFFF:7F00:1]",
    ]) {
      const message = await refusal(`http://${host}:3960/ssrf`);
      expect(message, host).toStartWith("webhook.url: ");
      expect(message, host).toContain("WEBHOOK_ALLOW_PRIVATE");
    }
  });

  test("the spellings that held before still do, names resolving to internal addresses included", async () => {
    for (const host of [
      "127.0.0.1",
      "localhost",
      "LOCALHOST",
      "127.1",
      "127.0.0.1.",
      "2130706433",
      "017700000001",
      "0177.0.0.1",
      "0x7f000001",
      "0x7f.1",
      "%31%32%37.0.0.1",
      "127.0.0.1%2e",
      "１２７．０．０．１",
      "①②⑦.0.0.1",
      "[::1]",
      "[::]",
      "0.0.0.0",
      "0",
      "169.254.169.254",
      "localhost.",
      "ip6-localhost",
      "localtest.me",
      "mapped-dotted.test",
      "mapped-hex.test",
      "loopback.test",
      // One public address among the answers is not enough: every answer is checked.
      "metadata.test",
    ])
      expect(await refusal(`http://${host}/hook`), host).toStartWith("webhook.url");
    for (const url of [
      "http://[fe80::1%25lo]/hook",
      "ftp://example.com/x",
      "file:///etc/passwd",
      "http://user@example.com/",
      "http://:pw@example.com/",
      "http://u:p@example.com/",
    ])
      expect(await refusal(url), url).toStartWith("webhook.url");
  });

  test("more spellings: zero runs, SIIT, NAT64, 6to4, Teredo, IPv4-compatible, reserved and special blocks", async () => {
    for (const host of [
      "[0::ffff:7f00:1]",
      "[0000:0000:0000:0000:0000:ffff:7f00:0001]",
      "[::ffff:0:a00:1]", // SIIT, 10.0.0.1
      "[64:ff9b::a9fe:a9fe]", // NAT64 of 169.254.169.254
      "[64:ff9b::169.254.169.254]",
      "[64:ff9b:1::808:808]", // local-use NAT64: not global whatever it carries
      "[2002:a00:1::1]", // 6to4 of 10.0.0.1
      "[2002:c0a8:101::]", // 6to4 of 192.168.1.1
      "[2001:0:4136:e378:8000:63bf:80ff:fffe]", // Teredo, client 127.0.0.1
      "[2001:0:4136:e378:8000:63bf:f5ff:fffe]", // Teredo, client 10.0.0.1
      "[::10.0.0.1]", // IPv4-compatible
      "[::a00:1]",
      "[::ffff:ffff:ffff]", // mapped 255.255.255.255
      "[fc00::1]",
      "[fd12:3456::1]",
      "[fe80::1]",
      "[febf::1]",
      "[ff02::1]",
      "[100::1]", // discard
      "[2001:db8::1]", // documentation
      "[3fff::1]", // documentation
      "[2001:2::1]", // benchmarking
      "[4000::1]", // outside 2000::/3
      "[::2]",
      "10.255.255.255",
      "100.127.255.255",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.88.99.1",
      "198.18.0.1",
      "198.19.255.255",
      "198.51.100.7",
      "203.0.113.9",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "0x0a.0.0.1",
      "012.0.0.1", // octal 10
    ])
      expect(await refusal(`http://${host}/hook`), host).toStartWith("webhook.url");
  });

  test("public addresses pass, carried in IPv6 too", async () => {
    for (const host of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "172.15.255.255",
      "172.32.0.1",
      "100.63.255.255",
      "100.128.0.1",
      "198.17.255.255",
      "198.20.0.1",
      "223.255.255.255",
      "[2606:4700:4700::1111]",
      "[2a00:1450:4001:81b::200e]",
      "[::ffff:8.8.8.8]",
      "[::ffff:808:808]",
      "[64:ff9b::808:808]", // NAT64 of 8.8.8.8
      "[2002:808:808::1]", // 6to4 of 8.8.8.8
      "[2001:0:4136:e378:8000:63bf:f7f7:f7f7]", // Teredo, client 8.8.8.8
      "[2001:db9::1]",
    ])
      expect(await refusal(`http://${host}/hook`), host).toBeNull();
    expect(await refusal("https://hooks.example.com/x")).toContain("could not be resolved");
  });

  test("the message names the address and the IPv4 address it stands for", async () => {
    expect(await refusal("http://[::ffff:a9fe:a9fe]/x")).toContain("::ffff:a9fe:a9fe, which stands for 169.254.169.254");
    expect(await refusal("http://mapped-hex.test/x")).toContain("::ffff:7f00:1, which stands for 127.0.0.1");
  });

  test("spellings of one address parse to the same bytes; zone ids and malformed text are not addresses", () => {
    const bytes = (text: string) => Array.from(parseIpAddress(text)?.bytes ?? []);
    for (const spelling of ["127.1", "0x7f000001", "017700000001", "0177.0.0.1", "127.0.0.1.", "2130706433"])
      expect(bytes(spelling), spelling).toEqual([127, 0, 0, 1]);
    const mapped = bytes("::ffff:7f00:1");
    for (const spelling of ["[::ffff:127.0.0.1]", "0:0:0:0:0:ffff:7f00:1", "0:0:0:0:0:FFFF:127.0.0.1", "0::ffff:7f00:1"])
      expect(bytes(spelling), spelling).toEqual(mapped);
    for (const text of [
      "fe80::1%lo",
      "fe80::1%25lo",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      ":1::",
      "::ffff:127.0.0.01",
      "::1.2.3.4:5",
      "12345::",
      "256.0.0.1",
      "1.2.3.4.5",
      "example.com",
      "[127.0.0.1]",
      "",
    ])
      expect(parseIpAddress(text), text).toBeNull();
    expect(isGlobalUnicast(parseIpAddress("1:2:3:4:5:6:7::")!)).toBe(false);
  });

  test("WEBHOOK_ALLOW_PRIVATE lets internal addresses through; production takes https only", async () => {
    const allowed = { allowPrivate: true, httpsOnly: false };
    await expect(checkWebhookUrl("http://[::ffff:7f00:1]:3960/x", allowed, hostsFile)).resolves.toBeUndefined();
    await expect(checkWebhookUrl("http://127.0.0.1:3960/x", allowed, hostsFile)).resolves.toBeUndefined();
    expect(await webhookTarget("http://localhost:3960/x", allowed, hostsFile)).toMatchObject({ addresses: ["::1", "127.0.0.1"] });
    const production = { allowPrivate: false, httpsOnly: true };
    await expect(checkWebhookUrl("http://8.8.8.8/x", production, hostsFile)).rejects.toThrow("webhook.url must start with https://");
    await expect(checkWebhookUrl("https://8.8.8.8/x", production, hostsFile)).resolves.toBeUndefined();
    await expect(checkWebhookUrl("https://[::ffff:7f00:1]/x", production, hostsFile)).rejects.toThrow("WEBHOOK_ALLOW_PRIVATE");
  });
});

describe("the connection goes to the address that was checked", () => {
  const received: { host: string | null; path: string }[] = [];
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        received.push({ host: request.headers.get("host"), path: new URL(request.url).pathname });
        return new Response(null, { status: 204 });
      },
    });
  });
  afterAll(() => server.stop(true));
  const post = (target: Parameters<typeof postPinned>[0], transport?: Send) =>
    postPinned(target, { headers: { "x-test": "1" }, body: "{}", signal: AbortSignal.timeout(5_000) }, transport);

  test("a name is posted to through the address it was resolved to, the name as Host", async () => {
    // `.invalid` never resolves: only the checked address can be reached.
    const allowed = { allowPrivate: true, httpsOnly: false };
    const target = await webhookTarget(`http://hooks.invalid:${server.port}/hook?x=1`, allowed, async () => ["127.0.0.1"]);
    const before = received.length;
    expect((await post(target)).status).toBe(204);
    expect(received.slice(before)).toEqual([{ host: `hooks.invalid:${server.port}`, path: "/hook" }]);
  });

  test("an address that cannot be reached gives way to the next one checked", async () => {
    const before = received.length;
    // Nothing listens on ::1 at this port (the server is on 127.0.0.1).
    expect((await post({ url: new URL(`http://hooks.invalid:${server.port}/next`), addresses: ["::1", "127.0.0.1"] })).status).toBe(204);
    expect(received.slice(before)).toEqual([{ host: `hooks.invalid:${server.port}`, path: "/next" }]);
  });

  test("the name answering an internal address after it was checked: refused at delivery, nothing sent", async () => {
    let calls = 0;
    const rebinding = async () => (calls++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]);
    const url = `http://rebind.invalid:${server.port}/hook`;
    await expect(checkWebhookUrl(url, open, rebinding)).resolves.toBeUndefined();
    const before = received.length;
    await expect(webhookTarget(url, open, rebinding)).rejects.toThrow("127.0.0.1");
    expect(received.length).toBe(before);
  });

  test("checked public, the name answering loopback to anyone asking again: the request goes to the checked address", async () => {
    // `localhost` is loopback to the system resolver; the injected resolver answered a public address, which was checked.
    const target = await webhookTarget(`http://localhost:${server.port}/hook`, open, async () => ["93.184.216.34"]);
    const dialled: { url: string; host: string | null }[] = [];
    const internet: Send = async (url, init) => {
      dialled.push({ url: url.href, host: new Headers(init.headers).get("host") });
      // The public address answers as the internet would; any other target goes out for real.
      return url.hostname === "93.184.216.34" ? new Response(null, { status: 202 }) : fetch(url, init);
    };
    const before = received.length;
    expect((await post(target, internet)).status).toBe(202);
    expect(dialled).toEqual([{ url: `http://93.184.216.34:${server.port}/hook`, host: `localhost:${server.port}` }]);
    expect(received.length).toBe(before);
  });

  test.skipIf(!Bun.which("openssl"))(
    "https: the certificate is checked against the name, sent as the TLS server name, while the address is dialled",
    async () => {
      const certs = makeCertificates("hooks.test");
      const secure = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: [{ serverName: "hooks.test", key: certs.key, cert: certs.cert }],
        fetch: (request) => new Response(request.headers.get("host")),
      });
      try {
        const trusting: Send = (url, init) => fetch(url, { ...init, tls: { ...init.tls, ca: certs.ca } });
        const allowed = { allowPrivate: true, httpsOnly: true };
        const named = await webhookTarget(`https://hooks.test:${secure.port}/hook`, allowed, async () => ["127.0.0.1"]);
        const response = await post(named, trusting);
        expect(await response.text()).toBe(`hooks.test:${secure.port}`);
        // Another name resolving to the same address: its certificate does not match, refused.
        const other = await webhookTarget(`https://other.test:${secure.port}/hook`, allowed, async () => ["127.0.0.1"]);
        await expect(post(other, trusting)).rejects.toThrow("ERR_TLS_CERT_ALTNAME_INVALID");
      } finally {
        secure.stop(true);
        rmSync(certs.dir, { recursive: true, force: true });
      }
    },
  );
});

describe("Slack text", () => {
  test("what users wrote is shown, not acted on: & < > escaped, one line, unseen characters named, @everyone broken", () => {
    expect(slackText("<!channel> Q&A <https://evil.example|click here>\r\nSecond line\u202e @everyone @here")).toBe(
      "&lt;!channel&gt; Q&amp;A &lt;https://evil.example|click here&gt; Second line⟨U+202E⟩ @\u200beveryone @\u200bhere",
    );
    expect(slackText("CRM: run completed, 6 of 6 answers, cost $0.00 (simulated)")).toBe("CRM: run completed, 6 of 6 answers, cost $0.00 (simulated)");
  });

  test("an alert's subject and query are escaped too", () => {
    const side = { k: 6, n: 10, rate: 60, low: 31, high: 83 };
    const line = alertInWords("<!here>", {
      id: "a",
      kind: "fell",
      metric: "mention",
      provider: "openai",
      subject: "<@U123> & co",
      query: "best <https://x.example|crm>",
      before: side,
      after: { ...side, k: 2, rate: 20 },
      p: 0.001,
      q: 0.04,
      rule: 1,
      runId: "r",
      at: "2026-01-01T00:00:00.000Z",
      searchIds: [],
    });
    const text = slackText(line);
    expect(text).not.toMatch(/[<>]/);
    expect(text).toContain("&lt;!here&gt;: Mentions of &lt;@U123&gt; &amp; co fell");
    expect(text).toContain('for "best &lt;https://x.example|crm&gt;"');
  });
});

/** A CA and a certificate for `name` signed by it, made with openssl. */
function makeCertificates(name: string): { dir: string; ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "webhook-tls-"));
  const run = (...args: string[]) => {
    const result = Bun.spawnSync(["openssl", ...args], { cwd: dir, stdout: "ignore", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`openssl ${args[0]}: ${result.stderr.toString()}`);
  };
  writeFileSync(join(dir, "ext"), `subjectAltName=DNS:${name}\n`);
  run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=webhook test CA");
  run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", `/CN=${name}`);
  run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "1", "-extfile", "ext");
  const read = (file: string) => readFileSync(join(dir, file), "utf8");
  return { dir, ca: read("ca.pem"), key: read("leaf.key"), cert: read("leaf.pem") };
}
