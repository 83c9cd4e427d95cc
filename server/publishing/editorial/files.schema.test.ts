import { describe, expect, it } from "vitest";

import { testOffice, testPdf, testZip } from "../../testing/documents";
import { testPng } from "../../testing/png";
import { attachmentDisposition, downloadName, FILE_KEY_PATTERN, sniffFileType, zipEntryNames } from "./files.schema";

const text = (value: string) => new TextEncoder().encode(value);

describe("sniffFileType", () => {
  it("knows a PDF by %PDF-, whatever its name", () => {
    expect(sniffFileType(testPdf(), "report.pdf")).toBe("application/pdf");
    expect(sniffFileType(testPdf(), "report.txt")).toBe("application/pdf");
    expect(sniffFileType(text("%PDF"), "short.pdf")).toBe("text/plain");
  });

  it("knows Word, Excel and PowerPoint by the ZIP's [Content_Types].xml and main folder", () => {
    expect(sniffFileType(testOffice("docx"), "a.docx")).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(sniffFileType(testOffice("xlsx"), "a.bin")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(sniffFileType(testOffice("pptx"), "")).toBe(
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    );
  });

  it("reads the local headers when the central directory is missing, and stops at a data descriptor", () => {
    const docx = testOffice("docx");
    // Cut the archive before its central directory: only the local headers are left.
    const localsOnly = docx.subarray(0, docx.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    expect(zipEntryNames(localsOnly)).toEqual(["[Content_Types].xml", "_rels/.rels", "word/document.xml"]);
    expect(sniffFileType(localsOnly, "a.docx")).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    const streamed = testZip(
      { "[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<x/>" },
      { dataDescriptor: true },
    );
    expect(sniffFileType(streamed, "a.xlsx")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const streamedLocalsOnly = streamed.subarray(0, streamed.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    expect(zipEntryNames(streamedLocalsOnly)).toEqual(["[Content_Types].xml"]);
    expect(sniffFileType(streamedLocalsOnly, "a.xlsx")).toBeNull();
  });

  it("refuses a plain ZIP, and an Office-looking ZIP without its content types or folder", () => {
    expect(sniffFileType(testZip({ "readme.txt": "hi", "word.txt": "x" }), "archive.docx")).toBeNull();
    expect(sniffFileType(testZip({ "word/document.xml": "<x/>" }), "a.docx")).toBeNull();
    expect(sniffFileType(testZip({ "[Content_Types].xml": "<Types/>", "other/x.xml": "<x/>" }), "a.docx")).toBeNull();
    // A folder name appearing only in the data, not as an entry, does not count.
    expect(
      sniffFileType(testZip({ "[Content_Types].xml": "<Types/>", "notes.txt": "word/ xl/ ppt/" }), "a.docx"),
    ).toBeNull();
    expect(sniffFileType(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), "broken.docx")).toBeNull();
  });

  it("takes UTF-8 text as CSV or plain text by the name's extension", () => {
    expect(sniffFileType(text("name,votes\nAda,3\n"), "results.CSV")).toBe("text/csv");
    expect(sniffFileType(text("name,votes\nAda,3\n"), "results.txt")).toBe("text/plain");
    expect(sniffFileType(text("Grüße, 東京 — naïve\n"), "notes")).toBe("text/plain");
    expect(sniffFileType(text("\ufeffwith a byte-order mark"), "bom.txt")).toBe("text/plain");
    // The name decides only CSV against text: a text file named .exe is text (and saved as .exe.txt).
    expect(sniffFileType(text("just words"), "setup.exe")).toBe("text/plain");
  });

  it("refuses text with NUL bytes, invalid UTF-8, markup, executables, images and empty files", () => {
    expect(sniffFileType(text("a,b\u0000c"), "a.csv")).toBeNull();
    expect(sniffFileType(new Uint8Array([0x68, 0x69, 0xff, 0xfe]), "a.txt")).toBeNull();
    expect(sniffFileType(text("<!DOCTYPE html><html><script>alert(1)</script></html>"), "page.txt")).toBeNull();
    expect(sniffFileType(text("  \n<svg xmlns='http://www.w3.org/2000/svg'/>"), "drawing.csv")).toBeNull();
    expect(sniffFileType(text("<?xml version='1.0'?><a/>"), "data.txt")).toBeNull();
    expect(sniffFileType(text("hello\n<script>alert(document.cookie)</script>"), "notes.txt")).toBeNull();
    expect(sniffFileType(text("x,y\n<img src=x onerror=alert(1)>"), "evil.csv")).toBeNull();
    // A Windows executable ("MZ", then NUL-padded headers) renamed as a document.
    const exe = new Uint8Array(256);
    exe.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
    expect(sniffFileType(exe, "report.pdf")).toBeNull();
    expect(sniffFileType(testPng(2, 2), "photo.pdf")).toBeNull();
    expect(sniffFileType(new Uint8Array(0), "empty.txt")).toBeNull();
  });
});

describe("downloads", () => {
  it("keeps the uploaded name when it ends with the type's extension, and adds it otherwise", () => {
    expect(downloadName("Budget 2026.PDF", "pdf")).toBe("Budget 2026.PDF");
    expect(downloadName("setup.exe", "txt")).toBe("setup.exe.txt");
    expect(downloadName("", "csv")).toBe("file.csv");
  });

  it("names the download in ASCII and, exactly, in UTF-8", () => {
    expect(attachmentDisposition("Report (final).pdf")).toBe(
      `attachment; filename="Report (final).pdf"; filename*=UTF-8''Report%20%28final%29.pdf`,
    );
    expect(attachmentDisposition('Grüße "x";.pdf')).toBe(
      `attachment; filename="Gr__e _x__.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%22x%22%3B.pdf`,
    );
  });

  it("keys have a files segment that no image key has", () => {
    expect(FILE_KEY_PATTERN.test("12/files/2026/11/0f8fad5b-d9cb-469f-a165-70867728950e.pdf")).toBe(true);
    expect(FILE_KEY_PATTERN.test("12/2026/11/0f8fad5b-d9cb-469f-a165-70867728950e.pdf")).toBe(false);
    expect(FILE_KEY_PATTERN.test("12/files/2026/11/0f8fad5b-d9cb-469f-a165-70867728950e.html")).toBe(false);
  });
});
