import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, queries, toast } from "#web/shared-chunk.ts";

/** Cancel or resume, then the page and the Pro status follow the server (spec §8 toasts). */
export function useSubscriptionChange(action: "cancel" | "resume") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) => (action === "cancel" ? api.cancelSubscription(subscriptionId) : api.resumeSubscription(subscriptionId)),
    onSuccess: async (result) => {
      toast({ title: action === "cancel" ? "Subscription Canceled" : "Subscription Resumed", description: result.message });
      await queryClient.invalidateQueries({ queryKey: queries.subscription(api).queryKey });
      await queryClient.invalidateQueries({ queryKey: queries.proStatus(api).queryKey });
    },
    onError: (error) =>
      toast({
        variant: "destructive",
        title: action === "cancel" ? "Cancellation Failed" : "Could not resume",
        description:
          error instanceof ApiError
            ? (error.serverMessage ?? (action === "cancel" ? "Failed to cancel subscription" : error.message))
            : "There was an error processing your request",
      }),
  });
}
