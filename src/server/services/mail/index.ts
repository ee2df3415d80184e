import { createTransport } from "nodemailer";

/**
 * One e-mail. Every mail that may come again says how to stop it, as RFC 8058's one-click
 * `List-Unsubscribe` (an https URL taking a POST, no session) beside the link in its text; only a
 * one-off (a workspace's invitation) has no `unsubscribe`, and says instead that nothing follows.
 */
export type MailMessage = { to: string; subject: string; text: string; unsubscribe?: string; html?: string };

export type Mailer = {
  /** Whether SMTP_URL is set: without it nothing is sent, and the product says so. */
  configured: boolean;
  send(message: MailMessage): Promise<void>;
};

/** E-mail through SMTP (nodemailer), or none when no SMTP_URL is set. */
export function createMailer({ smtpUrl, from }: { smtpUrl: string | undefined; from: string }): Mailer {
  if (!smtpUrl) {
    return {
      configured: false,
      send: async () => {
        throw new Error("e-mail is not configured on this server (SMTP_URL)");
      },
    };
  }
  const transport = createTransport(smtpUrl);
  return {
    configured: true,
    async send({ to, subject, text, unsubscribe, html }) {
      await transport.sendMail({
        from,
        to,
        subject,
        text,
        ...(html ? { html } : {}),
        // `List-Unsubscribe: <url>`, and the one-click POST it takes (RFC 8058).
        ...(unsubscribe ? { list: { unsubscribe }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } } : {}),
      });
    },
  };
}
