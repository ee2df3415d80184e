import { useRef, type ReactNode } from "react";
import { useLogout } from "#web/hooks/use-session.ts";

/**
 * "Log out" as a POST form (a GET link on any site could sign people out). Without
 * JavaScript, or before the page has hydrated, the browser posts it and the server answers 303 to
 * `/`; with it, the submit goes through the client's logout and the app goes home without a page
 * load. `children` is the submit button.
 */
export function LogoutForm({ children, className }: { children: ReactNode; className?: string }) {
  const logout = useLogout();
  const pending = useRef(false);
  return (
    <form
      method="post"
      action="/api/logout"
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        if (pending.current) return;
        pending.current = true;
        void logout().finally(() => {
          pending.current = false;
        });
      }}
    >
      {children}
    </form>
  );
}
