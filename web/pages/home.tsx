import { useMutation } from "@tanstack/react-query";
import { Card, CardContent } from "#web/components/ui/card.tsx";
import { SearchForm, type SearchSubmit } from "#web/components/search/search-form.tsx";
import { toast } from "#web/hooks/use-toast.ts";
import { api } from "#web/lib/api.ts";

export default function HomePage() {
  const search = useMutation({
    mutationFn: (request: SearchSubmit) => api.search(request),
    onError: (error) => toast({ variant: "destructive", title: "Search failed", description: errorMessage(error) }),
  });

  return (
    <main className="container mx-auto w-full max-w-6xl flex-1 px-4 py-8">
      <title>AI Search Comparison</title>
      <section className="mb-8 text-center">
        <h1 className="mb-2 text-3xl font-bold tracking-tight sm:text-4xl">AI Search Comparison</h1>
        <p className="text-muted-foreground">Compare results across multiple AI models with a single search</p>
      </section>
      <Card className="mx-auto mb-8 max-w-3xl">
        <CardContent>
          <SearchForm onSearch={(request) => search.mutate(request)} searching={search.isPending} />
        </CardContent>
      </Card>
      {search.isIdle ? (
        <p className="text-center text-muted-foreground">
          Enter a query above to see which products, companies and sources OpenAI, Anthropic and Gemini return for it.
        </p>
      ) : null}
    </main>
  );
}

/** Spec §8 "Search failed": the server message, else the error text, else a generic one. */
function errorMessage(error: unknown): string {
  if (error && typeof error === "object" && "serverMessage" in error && typeof error.serverMessage === "string") return error.serverMessage;
  return error instanceof Error && error.message ? error.message : "An unknown error occurred";
}
