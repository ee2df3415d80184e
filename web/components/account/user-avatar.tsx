import type { ComponentProps } from "react";
import { displayName, initialsOf, type Person } from "#web/components/account/names.ts";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar.tsx";
import { cn } from "#web/lib/utils.ts";
import { Button } from "#web/shared-chunk.ts";

/**
 * The profile image, or the initials while it loads or when there is none. Decorative: whatever
 * shows it also shows the name (or labels the control with it).
 */
export function UserAvatar({ user, className, fallbackClassName }: { user: Person; className?: string; fallbackClassName?: string }) {
  return (
    <Avatar className={className} aria-hidden="true">
      {user.profileImageUrl ? <AvatarImage src={user.profileImageUrl} alt="" /> : null}
      <AvatarFallback className={cn("font-medium", fallbackClassName)}>{initialsOf(user)}</AvatarFallback>
    </Avatar>
  );
}

/** The header's round avatar button, named after the user (the menu trigger). */
export function AvatarButton({ user, ...props }: ComponentProps<"button"> & { user: Person }) {
  return (
    <Button variant="ghost" size="icon" className="rounded-full" aria-label={`Account menu for ${displayName(user)}`} {...props}>
      <UserAvatar user={user} />
    </Button>
  );
}
