// What a run asks of the storage model and what it reports (models/storage.ts): plain types and
// names with no imports, so the public API (api.ts) can name them without importing the model.
export const STORAGE_MODEL_VERSION = '1.0.0';
export const DURABILITY_PLACEMENTS = ['none', 'ordered', 'scattered'] as const;
export type DurabilityPlacement = (typeof DURABILITY_PLACEMENTS)[number];
export const DEVICE_CLASSES = ['cloud_block', 'local_nvme'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
export const DEFAULT_DEVICE: DeviceClass = 'cloud_block';

export interface StorageSpec {
  /** none: nothing persisted (the paper's design); ordered: the engines' durable log; scattered: FLEET's placement */
  durability: DurabilityPlacement;
  device?: DeviceClass;
}

export interface ResolvedStorage {
  durability: DurabilityPlacement;
  device: DeviceClass;
}

export interface RecoveryEstimate {
  /** a node restarted from its disk: read its log, decode and apply every record */
  log_replay_ms: number;
  /** scattered only: gather the entries the ordered log lacks from the storage nodes and sort them */
  scattered_tail_ms: number;
  /** a wiped node: the snapshot over the network (or onto its disk, the slower), installed */
  snapshot_transfer_ms: number;
}

export interface StorageStats {
  durability: DurabilityPlacement;
  device: DeviceClass;
  model_version: string;
  persists: number;
  flushes: number;
  /** persists per flush (group commit) */
  persists_per_flush: number;
  bytes_written: number;
  flush_mean_us: number;
  flush_max_us: number;
  /** persist handed to the device → durable, mean (waiting behind other flushes included) */
  persist_wait_mean_us: number;
  recovery: RecoveryEstimate;
}
