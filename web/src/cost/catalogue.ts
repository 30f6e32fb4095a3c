// The EC2 price catalogue the cost model reads, parsed at build time for the instance picker.
import catalogueCsv from '@replicant/data/prices/ec2-prices-us-east-1.csv?raw';
import { parseCatalogue, type InstanceType } from '@replicant/data/prices';

export type { InstanceType } from '@replicant/data/prices';

export const INSTANCE_TYPES: InstanceType[] = parseCatalogue(catalogueCsv, 'data/prices/ec2-prices-us-east-1.csv');
