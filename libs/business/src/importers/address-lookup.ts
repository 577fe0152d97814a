import { AddressParts } from './address-text';

/** Address points by RUIAN `Kód ADM`: the join of RES `KODADM`. */
export interface AddressLookup {
  get(kodAdm: number): AddressParts | null;
  close(): void;
}
