// The EC2 price catalogue the cost model reads, parsed at build time for the instance picker.
import catalogueCsv from '@replicant/data/prices/ec2-prices-us-east-1.csv?raw';

export interface InstanceType {
  name: string;
  vcpus: number;
  memory_gib: number;
  usd_per_hour: number;
}

/** Reads the catalogue's first four columns (no quoted commas occur before source_note). */
export function parseCatalogue(csv: string): InstanceType[] {
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  if (!header?.startsWith('instance,vcpu,memory_gib,usd_per_hour_on_demand_linux')) {
    throw new Error('the price catalogue does not start with the expected columns');
  }
  return lines.map((line) => {
    const [name, vcpus, memory, usd] = line.split(',');
    return { name: name!, vcpus: Number(vcpus), memory_gib: Number(memory), usd_per_hour: Number(usd) };
  });
}

export const INSTANCE_TYPES: InstanceType[] = parseCatalogue(catalogueCsv);
