// Import FIRST in a whole-app test whose screens read the device database (the dashboard, the asset
// screens...): jsdom has neither IndexedDB nor Web Locks, and without them the app (rightly) shows
// "this browser cannot keep your data on this device" instead of the screen (sync/DeviceData.tsx).
// This gives the file a browser that has both: fake-indexeddb (set before Dexie loads, which reads
// the global once) and an in-memory lock manager. The screens then wait for the database to open,
// so a test finds what they show with findBy*.
import "fake-indexeddb/auto";
import { MemoryLockManager } from "@patrimonio/clientdb";

Object.defineProperty(navigator, "locks", { value: new MemoryLockManager(), configurable: true });
