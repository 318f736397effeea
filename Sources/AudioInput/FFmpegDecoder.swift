import CFFmpeg

/// Silences FFmpeg's process-wide logging once (its messages would otherwise go to stderr); failures are reported
/// through ``AudioDecodeError`` instead.
private let ffmpegLoggingSilenced: Void = av_log_set_level(AV_LOG_QUIET)

/// Size of the buffer FFmpeg reads through from a ``ByteSource``, in bytes.
private let ffmpegIOBufferSize: Int32 = 32768

/// FFmpeg's message and code for a negative return value.
private func ffmpegFailure(_ operation: String, _ code: Int32) -> AudioLibraryFailure {
    var buffer = [CChar](repeating: 0, count: 256)
    av_strerror(code, &buffer, buffer.count)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return AudioLibraryFailure(library: "FFmpeg", operation: operation, code: code, message: message)
}

/// A custom `AVIOContext` that reads a ``ByteSource``; frees its buffer and itself in `deinit`.
/// Thread rule: one owner; not `Sendable`.
final class FFmpegIOContext {
    let pointer: UnsafeMutablePointer<AVIOContext>
    private let source: ByteSource  // FFmpeg calls back into it until this object dies

    init(source: ByteSource) throws(AudioLibraryFailure) {
        self.source = source
        guard let buffer = av_malloc(Int(ffmpegIOBufferSize)) else {
            throw AudioLibraryFailure(library: "FFmpeg", operation: "av_malloc", code: 0, message: "out of memory")
        }
        let opaque = Unmanaged.passUnretained(source).toOpaque()
        let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), ffmpegIOBufferSize, 0, opaque,
            { opaque, destination, size in
                let source = Unmanaged<ByteSource>.fromOpaque(opaque!).takeUnretainedValue()
                let got = source.readAdvancing(into: destination!, count: Int(size))
                if got < 0 { return -EIO }  // AVERROR(EIO)
                return got == 0 ? cffmpeg_averror_eof() : Int32(got)
            },
            nil,
            { opaque, offset, whence in
                let source = Unmanaged<ByteSource>.fromOpaque(opaque!).takeUnretainedValue()
                if whence & AVSEEK_SIZE != 0 { return Int64(source.length) }
                return Int64(source.seek(offset: Int(offset), whence: whence & ~AVSEEK_FORCE))
            })
        guard let context else {
            av_free(buffer)
            throw AudioLibraryFailure(library: "FFmpeg", operation: "avio_alloc_context", code: 0, message: "out of memory")
        }
        pointer = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVIOContext>? = pointer
        av_freep(&pointer.pointee.buffer)
        avio_context_free(&context)
    }
}

/// An opened `AVFormatContext` (demuxer) reading through an ``FFmpegIOContext``; closed in `deinit`.
/// Thread rule: one owner; not `Sendable`.
final class FFmpegFormatContext {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    private let io: FFmpegIOContext  // released after the format context is closed

    init(io: FFmpegIOContext) throws(AudioLibraryFailure) {
        self.io = io
        guard let allocated = avformat_alloc_context() else {
            throw AudioLibraryFailure(library: "FFmpeg", operation: "avformat_alloc_context", code: 0, message: "out of memory")
        }
        allocated.pointee.pb = io.pointer
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let result = avformat_open_input(&context, nil, nil, nil)  // frees the context on failure
        guard result >= 0, let context else { throw ffmpegFailure("avformat_open_input", result) }
        pointer = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }
}

/// An opened decoder (`AVCodecContext`); freed in `deinit`. Thread rule: one owner; not `Sendable`.
final class FFmpegCodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(codec: UnsafePointer<AVCodec>, parameters: UnsafePointer<AVCodecParameters>) throws(AudioLibraryFailure) {
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw AudioLibraryFailure(library: "FFmpeg", operation: "avcodec_alloc_context3", code: 0, message: "out of memory")
        }
        pointer = allocated
        var result = avcodec_parameters_to_context(allocated, parameters)
        guard result >= 0 else { throw ffmpegFailure("avcodec_parameters_to_context", result) }
        result = avcodec_open2(allocated, codec, nil)
        guard result >= 0 else { throw ffmpegFailure("avcodec_open2", result) }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}

/// An `AVPacket`; freed in `deinit`. Thread rule: one owner; not `Sendable`.
final class FFmpegPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(AudioLibraryFailure) {
        guard let packet = av_packet_alloc() else {
            throw AudioLibraryFailure(library: "FFmpeg", operation: "av_packet_alloc", code: 0, message: "out of memory")
        }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}

/// An `AVFrame`; freed in `deinit`. Thread rule: one owner; not `Sendable`.
final class FFmpegFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(AudioLibraryFailure) {
        guard let frame = av_frame_alloc() else {
            throw AudioLibraryFailure(library: "FFmpeg", operation: "av_frame_alloc", code: 0, message: "out of memory")
        }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}

/// A libswresample context converting decoded frames to interleaved 32-bit float at the same rate and channels;
/// freed in `deinit`. Thread rule: one owner; not `Sendable`.
final class FFmpegSampleConverter {
    let pointer: OpaquePointer
    let channelCount: Int

    init(like frame: UnsafePointer<AVFrame>) throws(AudioLibraryFailure) {
        var layout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&layout, max(1, frame.pointee.ch_layout.nb_channels))
        } else {
            let result = av_channel_layout_copy(&layout, &UnsafeMutablePointer(mutating: frame).pointee.ch_layout)
            guard result >= 0 else { throw ffmpegFailure("av_channel_layout_copy", result) }
        }
        defer { av_channel_layout_uninit(&layout) }
        var context: OpaquePointer? = nil
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        var inputLayout = layout
        var result = swr_alloc_set_opts2(&context, &layout, AV_SAMPLE_FMT_FLT, frame.pointee.sample_rate,
                                         &inputLayout, format, frame.pointee.sample_rate, 0, nil)
        guard result >= 0, let context else { throw ffmpegFailure("swr_alloc_set_opts2", result) }
        result = swr_init(context)
        guard result >= 0 else {
            var failed: OpaquePointer? = context
            swr_free(&failed)
            throw ffmpegFailure("swr_init", result)
        }
        pointer = context
        channelCount = Int(layout.nb_channels)
    }

    deinit {
        var context: OpaquePointer? = pointer
        swr_free(&context)
    }

    /// Converts one decoded frame into `output` (resized as needed); returns the number of frames written.
    func convert(_ frame: UnsafePointer<AVFrame>, into output: inout [Float]) throws(AudioLibraryFailure) -> Int {
        let frames = Int(frame.pointee.nb_samples)
        if output.count < frames * channelCount { output = [Float](repeating: 0, count: frames * channelCount) }
        let input = UnsafeMutablePointer<UnsafePointer<UInt8>?>(OpaquePointer(frame.pointee.extended_data))
        let result = output.withUnsafeMutableBytes { bytes in
            var destination: UnsafeMutablePointer<UInt8>? = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return swr_convert(pointer, &destination, Int32(frames), input, Int32(frames))
        }
        guard result >= 0 else { throw ffmpegFailure("swr_convert", result) }
        return Int(result)
    }
}

/// Decodes MP4/M4A (AAC), ADTS AAC and Matroska/WebM audio with libavformat, libavcodec and libswresample.
enum FFmpegDecoder {
    static func decode(_ source: ByteSource, detected: DetectedContent) throws(AudioDecodeError) -> AudioClip {
        _ = ffmpegLoggingSilenced
        let name = source.name
        func corrupt(_ failure: AudioLibraryFailure) -> AudioDecodeError {
            if let readFailure = source.readFailure { return .unreadable(path: name, message: readFailure) }
            return .corrupt(path: name, failure: failure)
        }
        let format: FFmpegFormatContext
        do {
            format = try FFmpegFormatContext(io: FFmpegIOContext(source: source))
        } catch {
            throw corrupt(error)
        }
        let infoResult = avformat_find_stream_info(format.pointer, nil)
        guard infoResult >= 0 else { throw corrupt(ffmpegFailure("avformat_find_stream_info", infoResult)) }

        var codec: UnsafePointer<AVCodec>? = nil
        let streamIndex = av_find_best_stream(format.pointer, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
        if streamIndex == cffmpeg_averror_stream_not_found() { throw .noAudio(path: name) }
        if streamIndex == cffmpeg_averror_decoder_not_found() {
            throw .unsupportedCodec(path: name, container: containerName(detected), codec: firstAudioCodecName(format),
                                    failure: ffmpegFailure("av_find_best_stream", streamIndex))
        }
        guard streamIndex >= 0, let codec, let stream = format.pointer.pointee.streams[Int(streamIndex)] else {
            throw corrupt(ffmpegFailure("av_find_best_stream", streamIndex))
        }
        let parameters = stream.pointee.codecpar!
        let rate = Int(parameters.pointee.sample_rate)
        try AudioFileDecoder.checkSampleRate(rate, name: name)

        let decoder: FFmpegCodecContext
        let packet: FFmpegPacket
        let frame: FFmpegFrame
        do {
            decoder = try FFmpegCodecContext(codec: codec, parameters: parameters)
            packet = try FFmpegPacket()
            frame = try FFmpegFrame()
        } catch {
            throw corrupt(error)
        }
        let duration = format.pointer.pointee.duration
        let expectedFrames = duration > 0 ? Int(Double(duration) / Double(AV_TIME_BASE) * Double(rate)) : nil
        var builder = try ClipBuilder(sourceRate: rate, expectedSourceFrames: expectedFrames, name: name)
        // MP4 pads the last AAC frame; its stream duration (from the edit list) says where the audio really ends.
        var framesLeft: Int? = nil
        if detected == .mp4, stream.pointee.duration > 0 {
            framesLeft = Int(av_rescale_q(stream.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: Int32(rate))))
        }
        var converter: FFmpegSampleConverter? = nil
        var interleaved: [Float] = []
        var decodedFormat = AV_SAMPLE_FMT_NONE

        /// Drains every frame the decoder has ready into the builder.
        func receiveFrames() throws(AudioDecodeError) {
            while true {
                let result = avcodec_receive_frame(decoder.pointer, frame.pointer)
                if result == cffmpeg_averror_eagain() || result == cffmpeg_averror_eof() { return }
                guard result >= 0 else { throw corrupt(ffmpegFailure("avcodec_receive_frame", result)) }
                defer { av_frame_unref(frame.pointer) }
                do {
                    if converter == nil {
                        converter = try FFmpegSampleConverter(like: frame.pointer)
                        decodedFormat = AVSampleFormat(rawValue: frame.pointer.pointee.format)
                    }
                    var frames = try converter!.convert(frame.pointer, into: &interleaved)
                    if let left = framesLeft {
                        frames = min(frames, left)
                        framesLeft = left - frames
                    }
                    let channels = converter!.channelCount
                    interleaved.withUnsafeBufferPointer { builder.appendInterleaved($0, frames: frames, channelCount: channels) }
                } catch {
                    throw corrupt(error)
                }
            }
        }

        while true {
            let result = av_read_frame(format.pointer, packet.pointer)
            if result == cffmpeg_averror_eof() { break }
            guard result >= 0 else { throw corrupt(ffmpegFailure("av_read_frame", result)) }
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(decoder.pointer, packet.pointer)
            guard sent >= 0 || sent == cffmpeg_averror_eagain() else { throw corrupt(ffmpegFailure("avcodec_send_packet", sent)) }
            try receiveFrames()
        }
        avcodec_send_packet(decoder.pointer, nil)  // enter draining mode
        try receiveFrames()

        let samples = builder.finish()
        guard !samples.isEmpty else { throw .noAudio(path: name) }
        let info = AudioSourceInfo(
            container: containerName(detected), codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)).uppercased(),
            sampleRate: rate, channelCount: Int(parameters.pointee.ch_layout.nb_channels),
            sampleFormat: describe(decodedFormat), decoder: "FFmpeg")
        return AudioClip(samples: samples, source: info)
    }

    private static func containerName(_ detected: DetectedContent) -> String {
        switch detected {
        case .mp4: return "MP4"
        case .aacADTS: return "ADTS"
        case .matroska: return "Matroska"
        default: return detected.phrase
        }
    }

    /// The codec name of the first audio stream, for error messages.
    private static func firstAudioCodecName(_ format: FFmpegFormatContext) -> String {
        for index in 0..<Int(format.pointer.pointee.nb_streams) {
            guard let parameters = format.pointer.pointee.streams[index]?.pointee.codecpar,
                  parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
            return String(cString: avcodec_get_name(parameters.pointee.codec_id))
        }
        return "unknown"
    }

    /// Describes the decoder's output sample format, e.g. "32-bit float, planar (decoded)".
    private static func describe(_ format: AVSampleFormat) -> String {
        guard format != AV_SAMPLE_FMT_NONE else { return "unknown" }
        let bits = av_get_bytes_per_sample(format) * 8
        let kind = (format == AV_SAMPLE_FMT_FLT || format == AV_SAMPLE_FMT_FLTP || format == AV_SAMPLE_FMT_DBL
                    || format == AV_SAMPLE_FMT_DBLP) ? "float" : "integer"
        let layout = av_sample_fmt_is_planar(format) != 0 ? ", planar" : ""
        return "compressed (decoded as \(bits)-bit \(kind)\(layout))"
    }
}
