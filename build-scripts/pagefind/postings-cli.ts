/**
 * `node --import tsx build-scripts/pagefind/postings-cli.ts <build>/search`: writes the postings
 * of a read-model build already on disk from its Pagefind bundle (postings-writer.ts), without
 * building it again.
 */
import { writePostings } from './postings-writer.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: postings-cli.ts <read-model build>/search');
console.log(await writePostings(dir));
