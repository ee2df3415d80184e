import { Lexer, type Token, type Tokens } from "marked";
import { useMemo, type ReactNode } from "react";
import { answerProse } from "#src/core/extraction/answer-block.ts";
import { safeHref } from "#web/lib/format.ts";

/** The answer without the JSON block the product asked for, rendered (loaded with the full response, not before). */
export default function AnswerAsRead({ text, className }: { text: string; className?: string }) {
  const prose = useMemo(() => answerProse(text), [text]);
  if (!prose.trim()) return <p className="text-sm text-muted-foreground">The answer holds only the structured data the product asked for: see its raw text.</p>;
  return <AnswerMarkdown text={prose} className={className} />;
}

/**
 * A provider's answer as the person would have read it: its markdown as headings, emphasis,
 * lists, tables, code and links (ADR 031). Safe by construction: marked only splits the text
 * into tokens, and every token becomes a React element or escaped text — raw HTML in an answer
 * is shown as the text it is, never parsed, and only http(s) links are links (others are their
 * words). Images are not loaded: an answer is not allowed to make the browser fetch anything.
 */
export function AnswerMarkdown({ text, className }: { text: string; className?: string }) {
  const tokens = useMemo(() => Lexer.lex(text, { gfm: true }), [text]);
  return <div className={className}>{blocks(tokens)}</div>;
}

const HEADING_LEVEL = { 1: "h4", 2: "h4", 3: "h5" } as const;

function blocks(tokens: Token[]): ReactNode[] {
  return tokens.map((token, index) => block(token as Tokens.Generic, index));
}

function block(token: Tokens.Generic, key: number): ReactNode {
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "heading": {
      const Heading = HEADING_LEVEL[token.depth as 1 | 2 | 3] ?? "h6";
      return (
        <Heading key={key} className="mt-3 mb-1 font-semibold first:mt-0">
          {inline(token.tokens)}
        </Heading>
      );
    }
    case "paragraph":
      return (
        <p key={key} className="my-2">
          {inline(token.tokens)}
        </p>
      );
    case "text":
      // A tight list item's text: inline content without a paragraph around it.
      return <span key={key}>{token.tokens ? inline(token.tokens) : decodeEntities(token.text)}</span>;
    case "list": {
      const List = token.ordered ? "ol" : "ul";
      const start = token.ordered && typeof token.start === "number" && token.start !== 1 ? token.start : undefined;
      return (
        <List key={key} start={start} className={token.ordered ? "my-2 list-decimal space-y-1 pl-6" : "my-2 list-disc space-y-1 pl-6"}>
          {(token.items as Tokens.ListItem[]).map((item, i) => (
            <li key={i}>{blocks(item.tokens)}</li>
          ))}
        </List>
      );
    }
    case "code":
      return (
        <pre key={key} className="my-2 overflow-x-auto rounded-md bg-muted p-2 text-xs">
          <code>{token.text}</code>
        </pre>
      );
    case "blockquote":
      return (
        <blockquote key={key} className="my-2 border-l-2 pl-3 text-muted-foreground">
          {blocks(token.tokens ?? [])}
        </blockquote>
      );
    case "hr":
      return <hr key={key} className="my-3" />;
    case "table":
      return <AnswerTable key={key} table={token as Tokens.Table} />;
    case "html":
      // Raw HTML is what the model wrote, shown as text: never markup.
      return (
        <p key={key} className="my-2 break-words">
          {token.text}
        </p>
      );
    default:
      return <span key={key}>{token.raw}</span>;
  }
}

function AnswerTable({ table }: { table: Tokens.Table }) {
  return (
    <div className="my-2 overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs">
        <thead>
          <tr>
            {table.header.map((cell, i) => (
              <th key={i} scope="col" className="border px-2 py-1 font-semibold">
                {inline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) => (
                <td key={i} className="border px-2 py-1 align-top">
                  {inline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function inline(tokens: Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((token, index) => inlineToken(token as Tokens.Generic, index));
}

function inlineToken(token: Tokens.Generic, key: number): ReactNode {
  switch (token.type) {
    case "text":
      return token.tokens ? <span key={key}>{inline(token.tokens)}</span> : decodeEntities(token.text);
    case "escape":
      return token.text;
    case "strong":
      return <strong key={key}>{inline(token.tokens)}</strong>;
    case "em":
      return <em key={key}>{inline(token.tokens)}</em>;
    case "del":
      return <del key={key}>{inline(token.tokens)}</del>;
    case "codespan":
      return (
        <code key={key} className="rounded bg-muted px-1 text-[0.9em]">
          {token.text}
        </code>
      );
    case "br":
      return <br key={key} />;
    case "link":
      return (
        <AnswerLink key={key} href={token.href}>
          {inline(token.tokens)}
        </AnswerLink>
      );
    case "image":
      // Not loaded (see above): a link to it, named by its alt text.
      return (
        <AnswerLink key={key} href={token.href}>
          {token.text || token.href}
        </AnswerLink>
      );
    case "html":
      return token.text;
    default:
      return token.raw;
  }
}

/** A citation or any link in the answer: http(s) only, in a new tab, never passing our page on. */
function AnswerLink({ href, children }: { href: string; children: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) return <span>{children}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer nofollow" className="break-words text-blue-700 underline underline-offset-2 dark:text-blue-300">
      {children}
    </a>
  );
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

// marked leaves character references in text for an HTML renderer to decode; React would show them as typed.
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
