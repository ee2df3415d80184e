import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { answerProse } from "#src/core/extraction/answer-block.ts";
import AnswerAsRead, { AnswerMarkdown } from "#web/components/results/answer-markdown.tsx";

const render = (text: string) => renderToStaticMarkup(createElement(AnswerMarkdown, { text }));

// The answer as the person would have read it, and nothing in it can run.
describe("AnswerMarkdown: an answer's markdown, rendered safely", () => {
  test("bold, lists, headings, tables and citations become markup, without their marks", () => {
    const html = render(
      "## Picks\n\n1. **HubSpot CRM**: free ([hubspot.com](https://www.hubspot.com/crm?utm_source=openai))\n2. *Pipedrive*\n\n| Tool | Price |\n|---|---|\n| Notion | `$10` |\n\nMore at https://example.com/x.",
    );
    expect(html).toContain("<h4");
    expect(html).toContain("<strong>HubSpot CRM</strong>");
    expect(html).toContain("<em>Pipedrive</em>");
    expect(html).toMatch(
      /<a href="https:\/\/www\.hubspot\.com\/crm\?utm_source=openai" target="_blank" rel="noopener noreferrer nofollow"[^>]*>hubspot\.com<\/a>/,
    );
    expect(html).toMatch(/<a href="https:\/\/example\.com\/x"[^>]*>https:\/\/example\.com\/x<\/a>/);
    expect(html).toContain("<th");
    expect(html).toContain("<code");
    expect(html).not.toContain("**");
    expect(html).not.toContain("|---");
  });

  test("raw HTML in an answer is shown as text, never as elements", () => {
    const html = render(
      'Hello <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n<iframe src="https://evil.example"></iframe>\n\n<a href="javascript:alert(3)">x</a>',
    );
    expect(html).not.toMatch(/<img|<script|<iframe|<a href="javascript/i);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;iframe");
  });

  test("only http(s) links are links: javascript:, data: and relative ones are their words", () => {
    const html = render(
      "[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [rel](/api/logout) ![pic](javascript:alert(4)) [ok](https://ok.example/)",
    );
    expect(html).not.toMatch(/href="(?!https:\/\/ok\.example\/")/);
    expect(html).not.toContain("<img");
    expect(html).toContain("<span>click</span>");
    expect(html).toMatch(/<a href="https:\/\/ok\.example\/"[^>]*>ok<\/a>/);
  });

  test("character references read as characters; code keeps its text as typed", () => {
    expect(render("AT&amp;T &#8212; fine")).toContain("AT&amp;T — fine");
    expect(render("```\n<b>bold</b>\n```")).toContain(
      '<pre class="my-2 overflow-x-auto rounded-md bg-muted p-2 text-xs"><code>&lt;b&gt;bold&lt;/b&gt;</code></pre>',
    );
  });
});

describe("answerProse: the answer without the block the product asked for", () => {
  const block = '```json\n{"products":[{"name":"HubSpot CRM","rank":1}],"companies":[{"name":"HubSpot","products":["HubSpot CRM"]}]}\n```';

  test("drops the fenced JSON block and the line that introduces it", () => {
    expect(answerProse(`**HubSpot CRM** is free.\n\nHere is the structured summary:\n\n${block}`)).toBe("**HubSpot CRM** is free.");
    expect(answerProse(`Try **HubSpot CRM**.\n\n${block}`)).toBe("Try **HubSpot CRM**.");
  });

  test("an unfenced block with text after it keeps that text", () => {
    expect(answerProse('Try HubSpot.\n\n{"products":[{"name":"HubSpot CRM"}],"companies":[]}\n\nLet me know if you need more.')).toBe(
      "Try HubSpot.\n\nLet me know if you need more.",
    );
  });

  test("an answer without a block, and a list ending in a colon, are left as they are", () => {
    expect(answerProse("Just prose, **bold**.")).toBe("Just prose, **bold**.");
    expect(answerProse(`Options:\n- HubSpot: free\n\n${block}`)).toBe("Options:\n- HubSpot: free");
  });

  test("the rendered answer shows neither the block nor its marks", () => {
    const html = renderToStaticMarkup(createElement(AnswerAsRead, { text: `**HubSpot CRM** is free.\n\nStructured data:\n\n${block}` }));
    expect(html).toBe('<div><p class="my-2"><strong>HubSpot CRM</strong> is free.</p></div>');
  });
});
