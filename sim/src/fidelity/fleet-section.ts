// The FLEET section of docs/fidelity.md (the fidelity generator appends it; `npm --workspace
// @replicant/sim run fleet` computes its table). Written by hand from that output: rerun the
// command and update the table and the figures in the text when the storage model or card changes.
export const FLEET_SECTION = `## FLEET: durability

The storage model (sim/src/models/storage.ts, storage model 1.0.0, card 1.3.0's \`storage.*\`)
compared with what FLEET (Fan, Tan, Zhou, Li; PVLDB 18(5), 2025) states in its text
([data/fleet/fleet-values.csv](../data/fleet/fleet-values.csv), each number with its quote). No
storage parameter was fitted to FLEET: the two NVMe figures FLEET states (2 GB/s, 130k IOPS per
drive, §6.1.2) are taken as given, everything else is assumed, so every row below is held out.
FLEET measured etcd on 64-core machines; this is the paper's Replicant design with its
calibrated CPU costs, so absolute throughputs do not carry over and only ratios and shapes are
compared.

Simulated (fast model, rust, 5 nodes, model card 1.3.0, storage model 1.0.0, seed 1; 132 s of computing):
\`npm --workspace @replicant/sim run fleet -- --threads 256 --duration-s 1 --engine rust\`

| device | value | durability | peak ops/s (256 threads, closed loop) | vs none | p50 at peak (ms) | p90 at 2 threads (ms) | persists per flush at peak | scattered tail at 10,000 ops/s (ms) |
|---|---|---|---|---|---|---|---|---|
| local_nvme | 64 B | none | 42,036 | 1.00 | 6.09 | 0.76 | - | - |
| local_nvme | 64 B | ordered | 22,556 | 0.54 | 10.94 | 1.00 | 19.9 | 0.00 |
| local_nvme | 64 B | scattered | 39,757 | 0.95 | 6.43 | 0.83 | 1.2 | 2.58 |
| | | scattered / ordered | | **1.76×** | | | | |
| local_nvme | 4096 B | none | 42,038 | 1.00 | 6.09 | 0.82 | - | - |
| local_nvme | 4096 B | ordered | 20,882 | 0.50 | 11.65 | 1.07 | 11.1 | 0.00 |
| local_nvme | 4096 B | scattered | 39,773 | 0.95 | 6.43 | 0.90 | 1.2 | 9.03 |
| | | scattered / ordered | | **1.90×** | | | | |
| cloud_block | 64 B | none | 42,036 | 1.00 | 6.09 | 0.76 | - | - |
| cloud_block | 64 B | ordered | 10,161 | 0.24 | 25.92 | 7.92 | 52.8 | 0.00 |
| cloud_block | 64 B | scattered | 41,376 | 0.98 | 6.16 | 2.73 | 14.1 | 2.58 |
| | | scattered / ordered | | **4.07×** | | | | |
| cloud_block | 4096 B | none | 42,038 | 1.00 | 6.09 | 0.82 | - | - |
| cloud_block | 4096 B | ordered | 6,627 | 0.16 | 38.11 | 8.05 | 53.6 | 0.00 |
| cloud_block | 4096 B | scattered | 24,080 | 0.57 | 11.52 | 2.81 | 12.4 | 9.03 |
| | | scattered / ordered | | **3.63×** | | | | |

What matches:

- **The ordering, not the disk, is the limit.** On one local NVMe drive the flushes are short
  (tens of µs) and group commit packs about 20 persists into each, so the device is far from
  busy, yet the ordered log halves the peak throughput at a fixed client concurrency (0.54 of no
  durability at 64 B), while scattered entries keep 0.95 of it. The ordered cost comes from what
  waits: a leader's entry, each follower's vote and the commit marks are flushed one after the
  other, and everything behind an outstanding persist is held, so each operation waits for
  several flushes in a row and the client threads run out before the CPU or the disk does. FLEET
  says the same of Raft on its testbed: storage, network and CPU stay well below saturation while
  the protocol's ordering caps throughput (§6.2; \`fig3-memkv-fleet-vs-raft-1disk-64b-throughput-ratio\`:
  7× on the same single disk).
- **Larger values move the limit to bandwidth.** FLEET's advantage shrinks from 7× (64 B) to
  14 % (4 KB) on one disk (\`fig3-memkv-fleet-vs-raft-1disk-4kb-throughput-gain\`). On the cloud
  block volume (125 MiB/s) the model shows the same turn: scattered 4 KB entries saturate the
  volume's bandwidth (0.57 of no durability, against 0.98 at 64 B), and the ratio falls from
  4.07× to 3.63×.
- **Recovery costs little extra.** FLEET's leader recovery is 1175 ms against Raft's 1126 ms, 49 ms
  more (§6.6; the abstract rounds it to 5 %), nearly all of both being the ten missed 100 ms
  heartbeats before an election. In the model the scattered placement adds only the gathering and
  sorting of the entries FLEET's ordered log has not caught up with (\`storage.scattered.olog_lag_us\`,
  assumed 100 ms, at FLEET's 10,000 ops/s): 2.6 ms for 64 B values, 9 ms for 4 KB. Same sign,
  smaller size: the model has no leader election in this figure and assumes the lag, which FLEET
  does not state.

What differs, and why:

- **The size of the 64 B gap.** The model's ordered log costs 1.76× on NVMe (4.07× on a cloud
  volume) where FLEET measured 7×. Raft in etcd also sends entries in log order and takes locks to
  dispatch them in the same order (FLEET §1), which the model does not contain: here a follower
  votes as soon as its own flush is done, and group commit lets one flush carry everything that
  waited. The model's ordered log is a best case for ordering.
- **4 KB on NVMe.** FLEET's gap nearly closes at 4 KB (its text does not say which resource fills
  there; its scale-out runs with 4 KB values are bound by the 20 Gbit/s network, §6.4); in the model one NVMe drive's 2 GB/s is far from full at these rates and the per-byte CPU
  is outside the serialized section, so the ratio stays at 1.90×.
- **Light load.** FLEET is slightly slower than Raft with 2 client threads (p90 0.97 against
  0.85 ms, §6.2): a request served by a non-leader asks the leader for its log position first, an
  extra round trip. In the model the clients talk to the leader and the scattered placement needs
  no extra message, so it is faster at every load (p90 0.83 against 1.00 ms on NVMe).
- **Not modelled:** FLEET's separate storage-node groups and their scale-out (Fig 5), its
  pre-apply for etcd (Fig 7), Scalog, and disks per node beyond one (FLEET's runs use six; Raft
  can use only one).

The real engines in durability log run the ordered placement in exact mode, their persists
completed after the modelled flush: at 2,000 ops/s on the cloud block volume their median is
within 25 % of the fast model's (sim/src/run/storage-run.test.ts). The scattered placement is
fast mode only: the cores release held effects strictly in persist order.
`;
