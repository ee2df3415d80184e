import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A message as it came over SMTP: its envelope's recipients, its headers (names lower-cased, unfolded), Subject and plain text decoded. */
export type ReceivedMail = { to: string[]; headers: Record<string, string>; subject: string; text: string; html?: string };

/**
 * A real SMTP server on loopback (smtp-server) that keeps what it receives, for tests that send the
 * product's e-mail through SMTP_URL as production does.
 */
export async function startSmtpSink(): Promise<{ url: string; inbox: ReceivedMail[]; stop(): Promise<void> }> {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("latin1")));
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), ...parseMail(raw) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    inbox,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Headers, Subject and text of a raw message (quoted-printable or base64 undone, UTF-8 read): a
 * single part, or multipart/alternative, whose text/plain part is its text and text/html its html.
 */
export function parseMail(raw: string): Omit<ReceivedMail, "to"> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const boundary = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
  if (boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith("--"))
      .map((part) => parseMail(part.replace(/^\r?\n/, "")));
    const plain = parts.find((part) => (part.headers["content-type"] ?? "text/plain").startsWith("text/plain"));
    const html = parts.find((part) => (part.headers["content-type"] ?? "").startsWith("text/html"));
    return { headers, subject: decodeWords(headers.subject ?? ""), text: plain?.text ?? "", ...(html ? { html: html.text } : {}) };
  }
  const encoding = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  const bytes =
    encoding === "quoted-printable"
      ? Buffer.from(
          body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          "latin1",
        )
      : encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64")
        : Buffer.from(body, "latin1");
  return { headers, subject: decodeWords(headers.subject ?? ""), text: bytes.toString("utf8").replace(/\r\n/g, "\n") };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) read back as text. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : Buffer.from(
          data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

/** The links in a message's text under `path` (e.g. "/email/confirm/"), in order. */
export function linksIn(text: string, path: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s()<>]+/g)].map((match) => match[0].replace(/[.,:;]+$/, "")).filter((url) => new URL(url).pathname.startsWith(path));
}
