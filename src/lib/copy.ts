/**
 * The prose of service × city pages, built from the service's and the city's own data. Sentence
 * templates are chosen per page from a stable hash, so neighbouring pages read differently and a
 * rebuild produces the same text.
 */
import type { City, Service } from './site.ts';
import { areaOf } from './site.ts';
import { articlePlural, cap, listEs, lowerFirst, partner, pick, rotate } from './text.ts';
import { cityPrices, priceLevel, type ScaledPrice } from './prices.ts';

export interface Faq {
  q: string;
  a: string;
}

export interface ServiceCityCopy {
  title: string;
  description: string;
  lead: string[];
  jobsHeading: string;
  jobsIntro: string;
  jobs: string[];
  localNote: string | undefined;
  climateHeading: string;
  climate: string[];
  zonesHeading: string;
  zonesIntro: string;
  districts: string[];
  zonesNearby: string;
  pricesHeading: string;
  pricesIntro: string;
  prices: ScaledPrice[];
  taxNote: string;
  faqHeading: string;
  faqs: Faq[];
  stepsVariant: number;
}

/** What the tax regime means for this trade in this city. Shared with city hubs. */
export function taxNote(city: City, service?: Service): string {
  if (city.tax === 'IGIC') {
    return `En ${city.short} no se aplica IVA sino IGIC, el impuesto indirecto canario: un 7 % con carácter general y tipos reducidos en los supuestos que prevé la normativa canaria. El profesional indica el tipo aplicable en su presupuesto y en su factura.`;
  }
  if (service && !service.reduced_vat) {
    return `En ${city.short} estos trabajos llevan normalmente el IVA general del 21 %, que el profesional suma a su presupuesto y detalla en la factura.`;
  }
  return `En ${city.short} se aplica IVA: un 21 % con carácter general y un 10 % en obras de reparación o renovación de viviendas particulares terminadas hace al menos dos años, siempre que los materiales que aporta el profesional no superen el 40 % del precio. El profesional indica el tipo aplicable en su presupuesto y en su factura.`;
}

export function serviceCityCopy(service: Service, city: City): ServiceCityCopy {
  const key = `${service.id}|${city.id}`;
  const k = (slot: string) => `${key}|${slot}`;
  const art = articlePlural(service.gender);
  const pros = `${service.pro_plural} ${partner(service.gender, true)}`;
  const area = areaOf(city);
  const districts = rotate(k('districts'), city.districts, 3);
  const nearby = rotate(k('nearby'), city.nearby, 3);
  const where = city.island === city.short
    ? 'en el resto de la isla'
    : city.island
      ? `en el resto de la ciudad y en otros municipios de ${city.island}`
      : 'en el resto de la ciudad y en su área metropolitana';
  const places = city.island ? 'barrios y municipios' : 'barrios';
  const prices = cityPrices(service.prices, city);
  const first = prices[0]!;
  const second = prices[1] ?? first;

  const lead = [
    pick(k('lead'), [
      `¿Necesitas ${service.pro_article} en ${city.name}? Cuéntanos qué ocurre y pasamos tu solicitud de ${service.label} a ${pros} de ${area}, que te llaman para concretar la visita y te dan su presupuesto antes de empezar. Atienden en ${listEs(districts)}, así como ${where}.`,
      `Aviso Hogar recibe solicitudes de ${service.label} en ${city.name} y las pasa a ${pros} que trabajan en ${area}. Explicas el problema una sola vez, por teléfono, WhatsApp o correo, y el profesional te contacta, valora el trabajo y te presenta su presupuesto; si lo aceptas, lo contratas directamente con él.`,
      `Desde ${listEs(districts)} hasta ${nearby[0] ?? city.short}, ${art} ${pros} de ${area} atienden las solicitudes de ${service.label} que llegan a través de Aviso Hogar. ${service.summary}`,
      `Aquí tienes lo que conviene saber sobre ${service.label} en ${city.name}: los trabajos más habituales, cómo influyen el clima y el tipo de vivienda de ${city.short}, las zonas atendidas y los precios orientativos. Cuando nos escribes, tu solicitud llega a ${service.pro_article} ${partner(service.gender, false)} de ${area}.`,
      `${cap(service.pro_plural)} en ${city.name} para particulares, comunidades de propietarios y negocios: pasamos cada solicitud a un profesional colaborador del oficio en ${area}, que se encarga del presupuesto, del trabajo y de la factura.`,
      `Una avería o una obra de ${service.label} en ${city.name} empieza con una llamada o un mensaje. Anotamos qué pasa, dónde y cuándo te viene bien, y lo pasamos a ${pros} que trabajan en ${places} como ${listEs(districts)}.`,
    ]),
  ];
  if (service.urgent) {
    lead.push(pick(k('urgent'), [
      `Para urgencias de ${service.label} recibimos avisos todos los días de 8:00 a 23:00 por teléfono o WhatsApp.`,
      `Si es urgente, llama o escribe por WhatsApp: los avisos urgentes se atienden todos los días de 8:00 a 23:00.`,
      `¿Es una urgencia? Recibimos avisos urgentes todos los días de 8:00 a 23:00, también fines de semana y festivos.`,
    ]));
  }

  const jobsHeading = pick(k('jobs-h'), [
    `Trabajos de ${service.label} más pedidos en ${city.short}`,
    `Qué hacen ${art} ${service.pro_plural} en ${city.short}`,
    `Trabajos habituales en ${city.short}`,
    `${cap(service.label)} en ${city.short}: trabajos frecuentes`,
  ]);
  const jobsIntro = pick(k('jobs-i'), [
    `Entre los trabajos que ${art} ${pros} hacen en ${city.short} están:`,
    `Algunos de los trabajos que puedes pedir:`,
    `Puedes pedir, entre otros, estos trabajos:`,
    `Estos son algunos de los encargos más frecuentes:`,
  ]);

  const effects = city.climate.traits
    .map((t) => service.climate_effects[t])
    .filter((t): t is string => Boolean(t))
    .slice(0, 2);
  const climateHeading = pick(k('climate-h'), [
    `El clima de ${city.short} y tu vivienda`,
    `Clima, vivienda y ${service.label} en ${city.short}`,
    `Lo que el clima de ${city.short} significa para tu casa`,
  ]);
  const housing = pick(k('housing'), [
    `En ${city.short} conviven ${lowerFirst(city.housing)}`,
    `${city.housing} Cada tipo de edificio tiene sus averías típicas, y ${art} ${pros} de ${city.short} las conocen bien.`,
    `En cuanto a las viviendas: ${lowerFirst(city.housing)} La antigüedad del edificio condiciona mucho el trabajo y el precio.`,
  ]);
  const climate = [
    `${city.climate.summary} ${city.climate.homes}`,
    effects.length > 0
      ? effects.join(' ')
      : `Para ${service.label}, el clima de ${city.short} no añade dificultades especiales: lo que más cuenta es la antigüedad y el estado de la instalación.`,
    housing,
  ];

  const zonesHeading = pick(k('zones-h'), [
    `Zonas de ${city.short} donde atendemos`,
    `Barrios y municipios atendidos`,
    `¿Dónde atienden ${art} ${service.pro_plural}?`,
  ]);
  const zonesIntro = city.island
    ? pick(k('zones-i'), [
        `Los profesionales colaboradores trabajan en toda la isla de ${city.island}, entre otros en:`,
        `Recibimos solicitudes de toda ${city.island}; estos son algunos de los barrios y municipios atendidos:`,
      ])
    : pick(k('zones-i'), [
        `Atendemos solicitudes de todos los distritos de ${city.name}, entre ellos:`,
        `Los profesionales colaboradores trabajan en todos los barrios de ${city.short}, por ejemplo:`,
        `Cubrimos toda la ciudad; estos son algunos de los barrios y distritos de ${city.short}:`,
      ]);
  const zonesNearby = city.island
    ? pick(k('zones-n'), [
        `También pasamos solicitudes de otros municipios de ${city.island}, como ${listEs(city.nearby)}. Al contactarte, el profesional confirma si se desplaza a tu dirección y si cobra desplazamiento.`,
        `El resto de la isla también cuenta: ${listEs(nearby)} y otros municipios. El profesional te dice si el desplazamiento tiene coste.`,
      ])
    : pick(k('zones-n'), [
        `También llegan solicitudes de ${listEs(city.nearby)}. Al contactarte, el profesional confirma si se desplaza a tu dirección y si cobra desplazamiento.`,
        `Fuera de ${city.short}, atendemos solicitudes de localidades cercanas como ${listEs(city.nearby)}; el profesional te dice si el desplazamiento tiene coste.`,
        `Si vives en ${listEs(nearby)} o en otra localidad del entorno, también puedes enviarnos tu solicitud: el profesional confirma la cobertura y el coste del desplazamiento.`,
      ]);

  const level = priceLevel(city);
  const pricesIntro = pick(k('prices-i'), [
    `Estos son precios orientativos de ${service.label} en ${city.short}, sin impuestos; los precios en ${city.short} están ${level}. El importe final lo fija el profesional en su presupuesto, según el trabajo, los materiales y la urgencia.`,
    `Para hacerte una idea antes de pedir presupuesto: precios orientativos en ${city.short} (${level}), sin impuestos. Cada profesional fija su precio y lo confirma por escrito antes de empezar.`,
    `Los rangos de esta tabla son orientativos para ${city.short} y no incluyen impuestos. Aquí los precios están ${level}; el presupuesto del profesional es el que vale.`,
  ]);

  const faqPool: Faq[] = [
    {
      q: pick(k('faq-price'), [
        `¿Cuánto cuesta ${service.pro_article} en ${city.short}?`,
        `¿Qué precio tiene un trabajo de ${service.label} en ${city.short}?`,
      ]),
      a: `Depende del trabajo. Como referencia en ${city.short}: ${lowerFirst(first.concept)}, ${first.prose}; ${lowerFirst(second.concept)}, ${second.prose}. Son importes sin impuestos; el profesional te da el precio cerrado en su presupuesto.`,
    },
    {
      q: `¿Qué impuesto lleva la factura en ${city.short}?`,
      a: city.tax === 'IGIC'
        ? `El IGIC canario, no el IVA: un 7 % con carácter general, salvo que el trabajo tenga un tipo reducido. Lo verás desglosado en el presupuesto y en la factura del profesional.`
        : service.reduced_vat
          ? `El IVA: un 21 %, o un 10 % si es una reparación o renovación de una vivienda particular que cumple los requisitos legales. Lo verás desglosado en el presupuesto y en la factura del profesional.`
          : `El IVA general del 21 %, desglosado en el presupuesto y en la factura del profesional.`,
    },
    {
      q: pick(k('faq-area'), [
        `¿Atendéis también en ${nearby[0] ?? city.short}?`,
        `¿Llegáis a ${nearby[1] ?? nearby[0] ?? city.short}?`,
      ]),
      a: city.island
        ? `Sí. Pasamos solicitudes de toda la isla de ${city.island}, también de ${listEs(city.nearby)}. El profesional colaborador confirma la visita y si cobra desplazamiento.`
        : `Sí. Además de ${city.short}, pasamos solicitudes de ${listEs(city.nearby)}. El profesional colaborador confirma la visita y si cobra desplazamiento.`,
    },
    service.urgent
      ? {
          q: `¿Hay servicio urgente de ${service.label} en ${city.short}?`,
          a: `Sí. Los avisos urgentes se reciben todos los días de 8:00 a 23:00 por teléfono o WhatsApp y se pasan al primer profesional disponible de ${area}. Las salidas nocturnas, en fin de semana o en festivo tienen un recargo que el profesional te indica antes de desplazarse.`,
        }
      : {
          q: `¿Cuánto se tarda en tener presupuesto en ${city.short}?`,
          a: `Normalmente el profesional te llama en uno o dos días laborables para concretar una visita o pedirte fotos. Los trabajos pequeños se presupuestan a menudo en la misma visita; las obras, en unos días.`,
        },
    {
      q: `¿Quién hace el trabajo y quién lo garantiza?`,
      a: `Lo hace ${service.pro_article} ${partner(service.gender, false)} de ${area}, que te presupuesta, ejecuta y factura el trabajo y responde de su garantía. Aviso Hogar solo recibe tu solicitud y la pasa al profesional: no dirige la obra ni es parte del contrato.`,
    },
  ];
  const faqs = rotate(k('faqs'), faqPool, 4);

  return {
    title: `${service.name} en ${city.name}`,
    description: `${cap(service.pro_plural)} en ${city.name}: ${lowerFirst(service.typical_jobs[0]!)} y más. Zonas atendidas, precios orientativos con ${city.tax} y cómo pedir presupuesto sin compromiso.`,
    lead,
    jobsHeading,
    jobsIntro,
    jobs: rotate(k('jobs'), service.typical_jobs, 6),
    localNote: city.service_notes[service.id],
    climateHeading,
    climate,
    zonesHeading,
    zonesIntro,
    districts: city.districts,
    zonesNearby,
    pricesHeading: `Precios orientativos de ${service.label} en ${city.short}`,
    pricesIntro,
    prices,
    taxNote: taxNote(city, service),
    faqHeading: `Preguntas frecuentes sobre ${service.label} en ${city.short}`,
    faqs,
    stepsVariant: Number.parseInt(pick(k('steps'), ['0', '1', '2']), 10),
  };
}
