import { writeGeneratedFiles } from './openapi-files.js';

for (const path of await writeGeneratedFiles()) console.log(`wrote ${path}`);
