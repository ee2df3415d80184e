import type { ComponentProps } from "react";
import type { User } from "#src/contract/auth.ts";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar.tsx";
import { Button } from "#web/components/ui/button.tsx";
import { cn } from "#web/lib/utils.ts";

type Person = Pick<User, "username" | "firstName" | "lastName" | "email" | "profileImageUrl">;

/** "First Last", else the username: registration asks for no name, so it may be missing. */
export function displayName(user: Person): string {
  return [user.firstName, user.lastName].map((part) => part.trim()).filter(Boolean).join(" ") || user.username;
}

/** Spec §2: initials from the first and last name, else the email's first letter, else "U". */
export function initialsOf(user: Pick<Person, "firstName" | "lastName" | "email">): string {
  const fromName = [user.firstName, user.lastName].map((part) => part.trim().charAt(0)).join("");
  if (fromName) return fromName.toUpperCase();
  const fromEmail = user.email.trim().charAt(0);
  return fromEmail ? fromEmail.toUpperCase() : "U";
}

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
