// IndexedDB for the device copy of notes (the shell's offline layer).
import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// Cards render Markdown (a lazily loaded renderer): on a loaded 2-core CI machine a first
// render can take more than the default second, which would fail a test that is not wrong.
configure({ asyncUtilTimeout: 5_000 });
