/*
 * What most screens use, gathered in one module. Bun puts a module shared by several lazily
 * loaded chunks into a chunk of its own for each distinct set of importers; importing these
 * through one module keeps them in one chunk instead of a dozen tiny ones (ADR 006).
 */
export { Button } from "#web/components/ui/button.tsx";
export { Badge } from "#web/components/ui/badge.tsx";
export { Alert, AlertDescription, AlertTitle } from "#web/components/ui/alert.tsx";
export { Input } from "#web/components/ui/input.tsx";
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "#web/components/ui/card.tsx";
export { Skeleton } from "#web/components/ui/skeleton.tsx";
export { Progress } from "#web/components/ui/progress.tsx";
export { NativeSelect, NativeSelectOption } from "#web/components/ui/native-select.tsx";
export { InfoTip } from "#web/components/info-tip.tsx";
export { toast, useToast } from "#web/hooks/use-toast.ts";
export { api } from "#web/lib/api.ts";
export { personalQueryKeys, queries } from "#web/lib/queries.ts";
export { rememberUpgradeIntent, takeUpgradeIntent } from "#web/lib/upgrade-intent.ts";
export { useStartUpgrade } from "#web/hooks/use-start-upgrade.ts";
export { messages } from "#web/lib/messages.ts";
export { providerCatalogue, providerIds } from "#src/contract/providers.ts";
export { FREE_DAILY_SEARCHES, FREE_ITERATIONS, PRO_ITERATION_CHOICES } from "#src/contract/constants.ts";
export { ApiError } from "#src/client/errors.ts";
export { loadOnce } from "#web/lib/load-once.ts";
