package dev.bobbin.protocol.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Key and trust stores as operators keep them, PKCS#12 files or PEM files, turned into the JDK's
 * {@link SSLContext}s that Bobbin's servers, clients and cluster links use. A file is PEM when it
 * starts like one, PKCS#12 otherwise. Every failure names the file and what is wrong with it.
 */
public final class TlsStores {
  private static final Pattern PEM_KEY =
      Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
  private static final String KEY_ALIAS = "bobbin";

  private TlsStores() {}

  /** A context presenting {@code keys} and trusting {@code trust} (null: the JVM's trust). */
  public static SSLContext context(KeyStore keys, String keyPassword, KeyStore trust) {
    try {
      KeyManagerFactory km = null;
      if (keys != null) {
        km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, keyPassword.toCharArray());
      }
      TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tm.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(km == null ? null : km.getKeyManagers(), tm.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new TlsStoreException("the TLS context cannot be made: " + e.getMessage(), e);
    }
  }

  /**
   * The key store of a server: {@code file} as PKCS#12 opened with {@code password}, or PEM
   * certificates (its chain, leaf first) with the PEM private key in {@code keyFile}.
   */
  public static KeyStore keyStore(Path file, String password, Path keyFile) {
    if (!isPem(file)) {
      if (keyFile != null) throw new TlsStoreException(keyFile + ": a key file goes with PEM certificates, and " + file + " is PKCS#12");
      return pkcs12(file, password);
    }
    if (keyFile == null) throw new TlsStoreException(file + ": PEM certificates need their private key file");
    List<Certificate> chain = List.copyOf(certificates(file));
    if (chain.isEmpty()) throw new TlsStoreException(file + ": no PEM certificate in it");
    PrivateKey key = privateKey(keyFile);
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry(KEY_ALIAS, key, password.toCharArray(), chain.toArray(Certificate[]::new));
      return ks;
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsStoreException(file + ": " + e.getMessage(), e);
    }
  }

  /** The certificates {@code file} trusts: every certificate of a PEM file, or a PKCS#12 store. */
  public static KeyStore trustStore(Path file, String password) {
    if (!isPem(file)) return pkcs12(file, password);
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (Certificate c : certificates(file)) ks.setCertificateEntry("ca-" + i++, c);
      if (i == 0) throw new TlsStoreException(file + ": no PEM certificate in it");
      return ks;
    } catch (GeneralSecurityException | IOException e) {
      throw new TlsStoreException(file + ": " + e.getMessage(), e);
    }
  }

  private static KeyStore pkcs12(Path file, String password) {
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password.toCharArray());
      return ks;
    } catch (IOException | GeneralSecurityException e) {
      throw new TlsStoreException(file + ": not a PKCS#12 store this password opens (" + e.getMessage() + ")", e);
    }
  }

  private static Collection<? extends Certificate> certificates(Path file) {
    try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(file))) {
      return CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (IOException | GeneralSecurityException e) {
      throw new TlsStoreException(file + ": unreadable PEM certificates (" + e.getMessage() + ")", e);
    }
  }

  private static PrivateKey privateKey(Path file) {
    String pem = read(file);
    Matcher m = PEM_KEY.matcher(pem);
    if (!m.find()) {
      throw new TlsStoreException(file + ": no unencrypted PKCS#8 key (BEGIN PRIVATE KEY) in it;"
          + " convert one with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
    }
    byte[] der = Base64.getMimeDecoder().decode(m.group(1));
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm; try the next
      }
    }
    throw new TlsStoreException(file + ": the private key is neither RSA, EC nor Ed25519");
  }

  private static boolean isPem(Path file) {
    return read(file).stripLeading().startsWith("-----BEGIN");
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new TlsStoreException(file + ": cannot read it (" + e.getMessage() + ")", e);
    }
  }
}
