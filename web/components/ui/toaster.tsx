"use client";

import { TOAST_DURATION, useToast } from "#web/hooks/use-toast.ts";
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from "./toast.tsx";

export function Toaster() {
  const { toasts } = useToast();

  return (
    <ToastProvider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(function ({ id, title, description, action, ...props }) {
        return (
          <Toast key={id} {...props}>
            <div className="grid gap-1">
              {title && <ToastTitle>{title}</ToastTitle>}
              {description && <ToastDescription>{description}</ToastDescription>}
            </div>
            {action}
            <ToastClose />
          </Toast>
        );
      })}
      {/* At the top under the header at every width (shadcn puts it bottom right from sm): a toast
          that leads to another page (the limit's, to checkout or sign-in) must not sit on that
          page's main button, which forms keep at their foot. */}
      <ToastViewport hotkey={["F8"]} className="sm:top-16 sm:bottom-auto" />
    </ToastProvider>
  );
}
