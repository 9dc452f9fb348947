// Types of macho-signature.mjs, for the tests that import it.

export declare const CPU_TYPES: { readonly amd64: number; readonly arm64: number };

export interface MachOSegment {
  readonly name: string;
  readonly commandOffset: number;
  readonly vmsize: number;
  readonly fileoff: number;
  readonly filesize: number;
  readonly sections: readonly { readonly name: string; readonly size: number; readonly offset: number }[];
}

export interface MachO {
  readonly header: {
    readonly cputype: number;
    readonly filetype: number;
    readonly ncmds: number;
    readonly sizeofcmds: number;
  };
  readonly segments: readonly MachOSegment[];
  readonly commands: readonly { readonly cmd: number; readonly offset: number; readonly size: number }[];
  readonly signature:
    { readonly commandOffset: number; readonly dataoff: number; readonly datasize: number } | undefined;
}

export interface SignatureInfo {
  readonly identifier: string;
  readonly flags: number;
  readonly version: number;
  readonly hashType: string;
  readonly pageSize: number;
  readonly codeLimit: number;
  readonly pages: number;
  readonly mismatched: readonly number[];
  readonly cpu: string;
  readonly signatureOffset: number;
  readonly signatureSize: number;
}

export declare function readMachO(data: Buffer): MachO;
export declare function verifyMachOSignature(
  data: Buffer,
  arch: 'amd64' | 'arm64',
): { errors: string[]; info?: SignatureInfo };
export declare function signMachOAdHoc(data: Buffer, identifier: string): Buffer;
