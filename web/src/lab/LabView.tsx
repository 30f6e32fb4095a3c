import type { ViewProps } from '../app/App.tsx';
export default function View(_props: ViewProps) {
  return <p>Under construction.</p>;
}
