import { DurableObject } from 'cloudflare:workers';

export default {
  fetch() {
    return new Response('ok');
  },
} satisfies ExportedHandler<Env>;

export class ReceiptLog extends DurableObject<Env> {}
export class ModelHealth extends DurableObject<Env> {}
