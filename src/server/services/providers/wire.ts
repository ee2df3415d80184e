import * as v from "valibot";

/*
 * The parts of each provider's response that we read, parsed tolerantly: unknown item types and
 * extra fields pass through untouched (the APIs add fields often); a field we rely on that has
 * the wrong type fails loudly instead of turning into "undefined" deep in the extraction.
 */

/** A count the APIs may leave out or send as null: read as 0. */
const countOrZero = v.optional(v.nullable(v.number()), 0);

// OpenAI Responses API ------------------------------------------------------------------------

const Item = v.looseObject({ type: v.string() });

export const OpenAIUrlCitation = v.looseObject({ type: v.literal("url_citation"), url: v.string(), title: v.optional(v.nullable(v.string())) });
export const OpenAIOutputText = v.looseObject({ type: v.literal("output_text"), text: v.string(), annotations: v.optional(v.array(Item), []) });
export const OpenAIMessage = v.looseObject({ type: v.literal("message"), content: v.array(Item) });
export const OpenAIWebSearchCall = v.looseObject({
  type: v.literal("web_search_call"),
  action: v.optional(
    v.nullable(
      v.looseObject({
        type: v.string(),
        query: v.optional(v.nullable(v.string())),
        queries: v.optional(v.nullable(v.array(v.string()))),
        sources: v.optional(v.nullable(v.array(v.looseObject({ url: v.optional(v.string()) })))),
        url: v.optional(v.nullable(v.string())),
      }),
    ),
  ),
});

export const OpenAIResponse = v.looseObject({
  model: v.string(),
  status: v.optional(v.nullable(v.string())),
  incomplete_details: v.optional(v.nullable(v.looseObject({ reason: v.optional(v.nullable(v.string())) }))),
  output: v.array(Item),
  usage: v.optional(
    v.nullable(
      v.looseObject({
        input_tokens: countOrZero,
        output_tokens: countOrZero,
        input_tokens_details: v.optional(v.nullable(v.looseObject({ cached_tokens: countOrZero }))),
      }),
    ),
  ),
  tool_usage: v.optional(v.nullable(v.looseObject({ web_search: v.optional(v.nullable(v.looseObject({ num_requests: countOrZero }))) }))),
});
export type OpenAIResponse = v.InferOutput<typeof OpenAIResponse>;

/**
 * GET /v1/models/{model}: `shutdown_date` is "the date when the model will shut down, or null if
 * not announced" (YYYY-MM-DD). A date that does not parse is read as not announced, never as a
 * failed check: the retrieval itself proved the key and the model.
 */
export const OpenAIModel = v.looseObject({
  id: v.string(),
  shutdown_date: v.optional(v.fallback(v.nullable(v.pipe(v.string(), v.isoDate())), null)),
});

// Anthropic Messages API ----------------------------------------------------------------------

const AnthropicCitation = v.looseObject({ type: v.string(), url: v.optional(v.string()), title: v.optional(v.nullable(v.string())) });
export const AnthropicText = v.looseObject({ type: v.literal("text"), text: v.string(), citations: v.optional(v.nullable(v.array(AnthropicCitation))) });
export const AnthropicServerToolUse = v.looseObject({
  type: v.literal("server_tool_use"),
  name: v.string(),
  input: v.optional(v.looseObject({ query: v.optional(v.string()) })),
});
export const AnthropicSearchResult = v.looseObject({
  type: v.literal("web_search_tool_result"),
  content: v.union([
    v.array(v.looseObject({ type: v.string(), url: v.optional(v.string()), title: v.optional(v.nullable(v.string())) })),
    v.looseObject({ type: v.string(), error_code: v.optional(v.string()) }),
  ]),
});
export const AnthropicToolUse = v.looseObject({ type: v.literal("tool_use"), name: v.string(), input: v.unknown() });

export const AnthropicMessage = v.looseObject({
  model: v.string(),
  stop_reason: v.optional(v.nullable(v.string())),
  content: v.array(Item),
  usage: v.optional(
    v.nullable(
      v.looseObject({
        input_tokens: countOrZero,
        output_tokens: countOrZero,
        cache_read_input_tokens: countOrZero,
        cache_creation_input_tokens: countOrZero,
        server_tool_use: v.optional(v.nullable(v.looseObject({ web_search_requests: countOrZero }))),
      }),
    ),
  ),
});
export type AnthropicMessage = v.InferOutput<typeof AnthropicMessage>;

// Gemini generateContent ----------------------------------------------------------------------

export const GeminiResponse = v.looseObject({
  modelVersion: v.optional(v.string()),
  candidates: v.optional(
    v.array(
      v.looseObject({
        finishReason: v.optional(v.nullable(v.string())),
        content: v.optional(
          v.looseObject({ parts: v.optional(v.array(v.looseObject({ text: v.optional(v.string()), thought: v.optional(v.boolean()) })), []) }),
        ),
        groundingMetadata: v.optional(
          v.nullable(
            v.looseObject({
              webSearchQueries: v.optional(v.nullable(v.array(v.string())), []),
              groundingChunks: v.optional(
                v.nullable(v.array(v.looseObject({ web: v.optional(v.looseObject({ uri: v.optional(v.string()), title: v.optional(v.string()) })) }))),
                [],
              ),
              groundingSupports: v.optional(v.nullable(v.array(v.looseObject({ groundingChunkIndices: v.optional(v.array(v.number()), []) }))), []),
            }),
          ),
        ),
      }),
    ),
    [],
  ),
  usageMetadata: v.optional(
    v.looseObject({
      promptTokenCount: countOrZero,
      candidatesTokenCount: countOrZero,
      toolUsePromptTokenCount: countOrZero,
      thoughtsTokenCount: countOrZero,
      cachedContentTokenCount: countOrZero,
    }),
  ),
});
export type GeminiResponse = v.InferOutput<typeof GeminiResponse>;

// Perplexity Agent API (POST /v1/responses) ---------------------------------------------------

export const PerplexitySearchResults = v.looseObject({
  type: v.literal("search_results"),
  queries: v.optional(v.nullable(v.array(v.string())), []),
  results: v.optional(
    v.nullable(v.array(v.looseObject({ url: v.string(), title: v.optional(v.nullable(v.string())), snippet: v.optional(v.nullable(v.string())) }))),
    [],
  ),
});
/** A citation in the answer's text: a span and the page it cites (the Agent API's url_citation annotations). */
const PerplexityAnnotation = v.looseObject({
  type: v.optional(v.nullable(v.string())),
  url: v.optional(v.nullable(v.string())),
  title: v.optional(v.nullable(v.string())),
});
export const PerplexityOutputText = v.looseObject({
  type: v.literal("output_text"),
  text: v.string(),
  annotations: v.optional(v.nullable(v.array(PerplexityAnnotation)), []),
});
export const PerplexityMessage = v.looseObject({ type: v.literal("message"), status: v.optional(v.nullable(v.string())), content: v.array(Item) });

export const PerplexityResponse = v.looseObject({
  model: v.string(),
  status: v.optional(v.nullable(v.string())),
  error: v.optional(v.nullable(v.looseObject({ message: v.optional(v.nullable(v.string())), code: v.optional(v.nullable(v.unknown())) }))),
  incomplete_details: v.optional(v.nullable(v.looseObject({ reason: v.optional(v.nullable(v.string())) }))),
  output: v.array(Item),
  usage: v.optional(
    v.nullable(
      v.looseObject({
        input_tokens: countOrZero,
        output_tokens: countOrZero,
        input_tokens_details: v.optional(v.nullable(v.looseObject({ cache_read_input_tokens: countOrZero, cache_creation_input_tokens: countOrZero }))),
        tool_calls_details: v.optional(v.nullable(v.record(v.string(), v.looseObject({ invocation: countOrZero })))),
        // What the call cost in USD, as Perplexity bills it: the answer's cost when present.
        cost: v.optional(
          v.nullable(
            v.looseObject({
              total_cost: v.number(),
              tool_calls_cost: v.optional(v.nullable(v.number())),
              currency: v.optional(v.nullable(v.string())),
            }),
          ),
        ),
      }),
    ),
  ),
});
export type PerplexityResponse = v.InferOutput<typeof PerplexityResponse>;
