import { familyStems } from '/work/main/server/search/vocabulary.ts';
for (const w of ['fontaneria', 'fontanero', 'fontaneros', 'electricidad', 'electricista', 'cerrajeria', 'cerrajero', 'pintura', 'pintor', 'madrid']) console.log(w, [...familyStems(w)].sort().join(','));
