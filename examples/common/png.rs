//! A small PNG encoder for the examples: 8-bit RGB, stored (uncompressed)
//! deflate blocks, no compression library.

/// CRC-32 (IEEE, reflected, polynomial 0xEDB88320) as PNG chunks use it.
fn crc32(parts: &[&[u8]]) -> u32 {
    let mut crc = !0u32;
    for &byte in parts.iter().flat_map(|p| p.iter()) {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// Adler-32 of the uncompressed data, which ends a zlib stream.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

/// An 8-bit RGB PNG: rows of `3 * width` bytes, filter 0, in stored (uncompressed)
/// deflate blocks of at most 65535 bytes inside a zlib stream.
pub fn encode_png(width: usize, height: usize, rgb: &[u8]) -> Vec<u8> {
    assert_eq!(rgb.len(), width * height * 3);
    let mut raw = Vec::with_capacity(rgb.len() + height);
    for row in rgb.chunks(width * 3) {
        raw.push(0); // filter type: none
        raw.extend_from_slice(row);
    }
    let mut zlib = vec![0x78, 0x01]; // deflate, 32 KiB window, no dictionary
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (k, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(k + 1 == blocks.len())); // BFINAL, BTYPE = 00 (stored)
        let len = u16::try_from(block.len()).expect("blocks of at most 65535 bytes");
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    zlib.extend_from_slice(&adler32(&raw).to_be_bytes());

    let be32 = |v: usize| {
        u32::try_from(v)
            .expect("PNG sizes fit in 32 bits")
            .to_be_bytes()
    };
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&be32(width));
    ihdr.extend_from_slice(&be32(height));
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8 bits, RGB, deflate, filter 0, no interlace

    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (b"IHDR", &ihdr[..]),
        (b"IDAT", &zlib[..]),
        (b"IEND", &[][..]),
    ] {
        png.extend_from_slice(&be32(data.len()));
        png.extend_from_slice(kind);
        png.extend_from_slice(data);
        png.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
    }
    png
}
