// Whether a view already sits inside a page layout (the app shell or the plain layout). The router's
// fallbacks (Not Found, Something went wrong!) render inside the layout of the route that failed; at
// the root (an unknown path) there is none, and they bring their own.
import { createContext, useContext } from "react";

export const InLayoutContext = createContext(false);

export function useInLayout(): boolean {
  return useContext(InLayoutContext);
}
