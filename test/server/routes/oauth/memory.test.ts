/** The OAuth conformance suite over the in-process store. */
import { memoryStores } from './harness.ts';
import { oauthSuite } from './suite.ts';

oauthSuite('memory', memoryStores, { clockDrivesTtl: true });
