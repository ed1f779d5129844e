import type { HTMLAttributes } from "react";

export type HeadingLevel = 1 | 2 | 3 | 4;

/** An <h1>…<h4> chosen by a prop, so a component's title fits the page's outline. */
export function Heading({ level, ...rest }: HTMLAttributes<HTMLHeadingElement> & { level: HeadingLevel }) {
  const Tag = `h${level}` as const;
  return <Tag {...rest} />;
}
