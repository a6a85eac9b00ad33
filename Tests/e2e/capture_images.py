"""Photos for the capture tests, made on the spot: EAN-13 barcodes rendered by python-barcode, placed on a
textured background like the back of a book, then turned, blurred, warped and saved as noisy JPEGs with Pillow;
and pages of printed text for OCR."""

import io
import random

import barcode
from barcode.writer import ImageWriter
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
]


def ean13(isbn: str, module_px: int = 4) -> Image.Image:
    """The EAN-13 of `isbn` (13 digits, check digit included) with its digits printed below, on white."""
    code = barcode.get("ean13", isbn[:12], writer=ImageWriter())
    buffer = io.BytesIO()
    code.write(buffer, options={"module_width": module_px * 0.0847, "module_height": 18.0, "dpi": 300,
                                "quiet_zone": 4.0, "font_size": 10, "text_distance": 4.0})
    buffer.seek(0)
    return Image.open(buffer).convert("L")


def background(size, seed=1) -> Image.Image:
    """A cover-like backdrop: a colour gradient with grain, so the barcode is not alone on white."""
    rng = random.Random(seed)
    width, height = size
    small = Image.new("RGB", (32, 24))
    for x in range(32):
        for y in range(24):
            small.putpixel((x, y), (90 + rng.randrange(60), 60 + rng.randrange(40), 40 + rng.randrange(40)))
    image = small.resize(size, Image.BICUBIC)
    grain = Image.effect_noise(size, 24).convert("RGB")
    return Image.blend(image, grain, 0.15)


def book_photo(isbns, size=(4000, 3000), barcode_width=900, angle=0.0, blur=0.0, perspective=0.0, quality=75,
               noise=12, seed=1) -> bytes:
    """A JPEG like a phone's photo of the back of one or more books, one barcode per ISBN side by side."""
    rng = random.Random(seed)
    photo = background(size, seed)
    slot = size[0] // max(1, len(isbns))
    for index, isbn in enumerate(isbns):
        label = ean13(isbn).convert("RGB")
        scale = barcode_width / label.width
        label = label.resize((barcode_width, int(label.height * scale)), Image.LANCZOS)
        card = Image.new("RGB", (label.width + 80, label.height + 80), (250, 250, 246))
        card.paste(label, (40, 40))
        if angle:
            card = card.rotate(angle, expand=True, fillcolor=(0, 0, 0, 0), resample=Image.BICUBIC)
            mask = Image.new("L", (label.width + 80, label.height + 80), 255).rotate(angle, expand=True)
        else:
            mask = None
        x = index * slot + (slot - card.width) // 2 + rng.randrange(-20, 21)
        y = (size[1] - card.height) // 2 + rng.randrange(-40, 41)
        photo.paste(card, (max(0, x), max(0, y)), mask)
    if perspective:
        width, height = size
        shift = perspective * width
        # Quad: the top edge narrower than the bottom, as when the phone leans back.
        photo = photo.transform(size, Image.QUAD, (shift, 0, 0, height, width, height, width - shift, 0),
                                resample=Image.BICUBIC)
    if blur:
        photo = photo.filter(ImageFilter.GaussianBlur(blur))
    if noise:
        grain = Image.effect_noise(size, noise).convert("RGB")
        photo = Image.blend(photo, grain, 0.08)
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=quality)
    return out.getvalue()


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The same picture stored turned so that EXIF `orientation` (6: turn 90° clockwise to view) makes it upright."""
    image = Image.open(io.BytesIO(jpeg))
    stored = {3: image.rotate(180, expand=True), 6: image.rotate(90, expand=True),
              8: image.rotate(-90, expand=True)}[orientation]
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    stored.save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def text_photo(lines, size=(1800, 2400), font_path=FONTS[0], font_size=44, angle=0.0, quality=85) -> bytes:
    """A JPEG of a printed page: `lines` in black on off-white paper, slightly turned if `angle` is set."""
    page = Image.new("RGB", size, (247, 244, 236))
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(font_path, font_size)
    y = 160
    for line in lines:
        draw.text((140, y), line, fill=(25, 25, 25), font=font)
        y += int(font_size * 1.6)
    if angle:
        page = page.rotate(angle, expand=False, fillcolor=(247, 244, 236), resample=Image.BICUBIC)
    out = io.BytesIO()
    page.save(out, "JPEG", quality=quality)
    return out.getvalue()
