export interface InstanceType {
  name: string;
  vcpus: number;
  memory_gib: number;
  usd_per_hour: number;
}
/** Instance types of a price catalogue CSV; throws naming the file and line on a bad row. */
export declare function parseCatalogue(text: string, source?: string): InstanceType[];
