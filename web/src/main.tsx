import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ElectionDemo } from './ElectionDemo.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ElectionDemo />
  </StrictMode>,
);
